package safefile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Set is a save of several files as one: Write stages each file in a
// temporary file beside its final name (checksummed as it is written),
// and nothing is renamed until Commit renames them all, in the order
// they were staged. Abort (or a failed Write or Commit) removes every
// temporary file, so a run or a build that fails or is interrupted while
// writing leaves the previous files as they were. Only the renames of
// Commit can leave a mixed set (a crash between two renames), and its
// error says so; a build writes its report last for that reason.
//
// A Set may be used from several goroutines.
type Set struct {
	// Cancel, if set, is asked before each write to a staged file: an
	// error stops the save (a second Ctrl+C during a long export).
	Cancel func() error

	mu     sync.Mutex
	staged []staged
	paths  map[string]bool
	done   bool
}

type staged struct {
	temp, path string
	bytes      int64
	sum        string
}

// ErrStagedTwice is the error of a Set's Write of a file it already holds.
var ErrStagedTwice = errors.New("written twice in one save: two outputs name this file")

// Write stages files in the set. A file already staged is an error (two
// outputs on one file). On error the files of this call are removed; the
// ones staged before stay until Commit or Abort.
func (s *Set) Write(files ...File) error {
	for _, o := range files {
		if fi, err := os.Stat(o.Path); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: exists and is not a regular file: choose another name", o.Path)
		}
	}
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return errors.New("safefile: Write on a committed or aborted set")
	}
	if s.paths == nil {
		s.paths = map[string]bool{}
	}
	for _, o := range files {
		k := filepath.Clean(o.Path)
		if s.paths[k] {
			s.mu.Unlock()
			return fmt.Errorf("%s: %w", o.Path, ErrStagedTwice)
		}
		s.paths[k] = true
	}
	s.mu.Unlock()
	var mine []staged
	for _, o := range files {
		h := sha256.New()
		var n int64
		t, err := stage(o, s.Cancel, &counter{h: h, n: &n})
		if err != nil {
			for _, st := range mine {
				removeTemp(st.temp)
			}
			return err
		}
		mine = append(mine, staged{temp: t, path: o.Path, bytes: n, sum: hex.EncodeToString(h.Sum(nil))})
	}
	s.mu.Lock()
	s.staged = append(s.staged, mine...)
	s.mu.Unlock()
	return nil
}

// counter hashes and counts what a staged file receives.
type counter struct {
	h hash.Hash
	n *int64
}

func (c *counter) Write(p []byte) (int, error) {
	c.h.Write(p)
	*c.n += int64(len(p))
	return len(p), nil
}

// Sum returns the size and SHA-256 (hex) of a file staged in the set.
func (s *Set) Sum(path string) (bytes int64, sha string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := filepath.Clean(path)
	for _, st := range s.staged {
		if filepath.Clean(st.path) == k {
			return st.bytes, st.sum, true
		}
	}
	return 0, "", false
}

// Commit renames every staged file over its final name, in order, and
// syncs their folders. A failed rename removes the temporary files not
// yet renamed; its error says how many were.
func (s *Set) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errors.New("safefile: Commit on a committed or aborted set")
	}
	s.done = true
	var files []File
	for i, st := range s.staged {
		if err := rename(st.temp, st.path); err != nil {
			for _, r := range s.staged[i:] {
				removeTemp(r.temp)
			}
			if i > 0 {
				return fmt.Errorf("%s: %w (%d of the %d files were already written and may not match it)", st.path, Cause(err), i, len(s.staged))
			}
			return fmt.Errorf("%s: %w", st.path, Cause(err))
		}
		forget(st.temp)
		files = append(files, File{Path: st.path})
	}
	syncDirs(files)
	return nil
}

// Abort removes every staged file; the final names keep what they held.
// It may be called after Commit (it then does nothing).
func (s *Set) Abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	for _, st := range s.staged {
		removeTemp(st.temp)
	}
}

// WriteIn is Write in set, or a save of its own when set is nil.
func WriteIn(set *Set, files ...File) error {
	if set == nil {
		return Write(files...)
	}
	return set.Write(files...)
}

// live holds the temporary files being written or staged by this process,
// for RemoveTemps.
var live = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

func remember(t string) {
	live.Lock()
	live.m[t] = true
	live.Unlock()
}

func forget(t string) {
	live.Lock()
	delete(live.m, t)
	live.Unlock()
}

func removeTemp(t string) {
	os.Remove(t)
	forget(t)
}

// RemoveTemps removes every temporary file this process is writing or
// holds staged, and returns how many: for a process about to exit on a
// second interrupt in the middle of a save.
func RemoveTemps() int {
	live.Lock()
	defer live.Unlock()
	n := 0
	for t := range live.m {
		if os.Remove(t) == nil {
			n++
		}
		delete(live.m, t)
	}
	return n
}

// tempPattern is the os.CreateTemp pattern of path's temporary files:
// ".NAME.PID-RANDOM.tmp", the PID telling a later save whether the
// process that made it is still running.
func tempPattern(path string) string {
	return "." + filepath.Base(path) + "." + strconv.Itoa(os.Getpid()) + "-*.tmp"
}

// abandoned reports whether the temporary file name (of a save of base,
// in a folder) was left by a save that will not finish: its process is
// gone, or it is older than StaleAfter.
func abandoned(base, name string, mod time.Time) bool {
	prefix := "." + base + "."
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
		return false
	}
	if time.Since(mod) > StaleAfter {
		return true
	}
	mid := strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".tmp")
	pidS, _, ok := strings.Cut(mid, "-")
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(pidS)
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	return !processAlive(pid)
}

// RemoveStale removes the temporary files that saves of path which will
// not finish left beside it (see abandoned). It is best effort.
func RemoveStale(path string) { removeStale(path) }

// CleanDir removes, in dir and its subfolders, the temporary files of
// saves that will not finish (a build killed while writing), and returns
// their names. It is best effort.
func CleanDir(dir string) []string {
	var removed []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		n := d.Name()
		if !strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".tmp") {
			return nil
		}
		// The name is ".BASE.PID-RANDOM.tmp" or, from older releases,
		// ".BASE.RANDOM.tmp": try each dot as the end of BASE.
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		rest := n[1:]
		for i := strings.IndexByte(rest, '.'); i >= 0; {
			if abandoned(rest[:i], n, fi.ModTime()) {
				if os.Remove(p) == nil {
					removed = append(removed, p)
				}
				break
			}
			j := strings.IndexByte(rest[i+1:], '.')
			if j < 0 {
				break
			}
			i += 1 + j
		}
		return nil
	})
	return removed
}

// cancelWriter asks cancel before every write.
type cancelWriter struct {
	w      io.Writer
	cancel func() error
}

func (c *cancelWriter) Write(p []byte) (int, error) {
	if err := c.cancel(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// WriteJSONIn is WriteJSON in set (or at once when set is nil).
func WriteJSONIn(set *Set, path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	return WriteIn(set, File{Path: path, Fill: func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}})
}
