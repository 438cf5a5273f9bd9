// Package safefile saves files atomically: each file is written to a
// temporary file in its destination directory, flushed and fsynced, and
// only then renamed over the final name, so a failed or interrupted save
// never leaves a half-written file and never damages the previous one.
// A killed save's temporary file (".NAME.PID-RANDOM.tmp") is removed by a
// later save of the same file once its process is gone or it is
// StaleAfter old; CleanDir removes those of a folder. A Set stages several
// files and commits them together (a run's outputs, a build). ReadFile
// refuses inputs that are not regular files (a FIFO, a device). Errors
// name the path.
package safefile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// File is one file of a save: its final name and what goes in it.
type File struct {
	Path string
	Fill func(io.Writer) error
}

// Write stages every file in a temporary file beside its final name,
// then renames them in order. On error it removes the temporary files it
// made; files already renamed stay (only a failed rename after a successful
// one can cause that, and the error says so).
func Write(files ...File) error {
	for _, o := range files {
		if fi, err := os.Stat(o.Path); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: exists and is not a regular file: choose another name", o.Path)
		}
	}
	var temps []string
	defer func() {
		for _, t := range temps {
			removeTemp(t) // already renamed ones are gone: the error is expected
		}
	}()
	for _, o := range files {
		t, err := stage(o, nil, nil)
		if err != nil {
			return err
		}
		temps = append(temps, t)
	}
	for i, o := range files {
		if err := rename(temps[i], o.Path); err != nil {
			if i > 0 {
				return fmt.Errorf("%s: %w (%s was already written and may not match)", o.Path, Cause(err), files[0].Path)
			}
			return fmt.Errorf("%s: %w", o.Path, Cause(err))
		}
	}
	syncDirs(files)
	return nil
}

// StaleAfter is the age beyond which a temporary file of a save that
// never finished (the process was killed, the machine lost power) is
// removed by the next save of the same file, when its name does not say
// that its process is gone (see abandoned). A save in progress keeps its
// temporary file younger than that: it writes to it all along.
const StaleAfter = 10 * time.Minute

// removeStale removes the temporary files of earlier saves of path that
// will not finish: their process is gone, or they are older than
// StaleAfter. It is best effort.
func removeStale(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && abandoned(base, n, fi.ModTime()) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// stage writes o into a new temporary file in o's directory, flushed and
// synced, and returns its name. cancel, if set, is asked before every
// write (an error stops the save); tee, if set, receives a copy of the
// bytes.
func stage(o File, cancel func() error, tee io.Writer) (string, error) {
	removeStale(o.Path)
	dir := filepath.Dir(o.Path)
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(o.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	tf, err := os.CreateTemp(dir, tempPattern(o.Path))
	if err != nil {
		return "", fmt.Errorf("%s: cannot create a file in %s: %w: check that the directory exists and is writable", o.Path, dir, Cause(err))
	}
	remember(tf.Name())
	var dst io.Writer = tf
	if f := fault(); f != nil {
		dst = f.wrap(tf)
	}
	if tee != nil {
		dst = io.MultiWriter(dst, tee)
	}
	if cancel != nil {
		dst = &cancelWriter{w: dst, cancel: cancel}
	}
	bw := bufio.NewWriterSize(dst, 1<<16)
	err = o.Fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		tf.Chmod(mode) // best effort: some file systems have no modes
		err = tf.Sync()
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		removeTemp(tf.Name())
		return "", fmt.Errorf("%s: write failed: %w", o.Path, Cause(err))
	}
	return tf.Name(), nil
}

// A diskFault makes the files Write stages fail once limit bytes of one
// have been written, as a full disk does (see FailAfter), or, with
// stall, block there for good (see StallAfter).
type diskFault struct {
	limit   int64
	err     error
	stall   bool
	stalled func()
}

// faultWriter is a staged file's writer under a diskFault.
type faultWriter struct {
	w       io.Writer
	left    int64
	err     error
	stall   bool
	stalled func()
}

func (d *diskFault) wrap(w io.Writer) io.Writer {
	return &faultWriter{w: w, left: d.limit, err: d.err, stall: d.stall, stalled: d.stalled}
}

func (f *faultWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= f.left {
		f.left -= int64(len(p))
		return f.w.Write(p)
	}
	n, _ := f.w.Write(p[:f.left])
	f.left = 0
	if f.stall {
		if f.stalled != nil {
			f.stalled()
		}
		select {} // a disk that stopped answering: only the process's end ends this
	}
	return n, &fs.PathError{Op: "write", Path: "(staged file)", Err: f.err}
}

var faults struct {
	sync.Mutex
	d *diskFault
}

func fault() *diskFault {
	faults.Lock()
	defer faults.Unlock()
	return faults.d
}

// FailAfter makes every file Write stages from now on fail with err once
// limit bytes of it are written, as a full disk fails a write (err is
// typically syscall.ENOSPC), until the returned function is called. It
// is for tests of the callers' error paths (a save, an autosave, an
// export on a full disk) in any package; nothing else calls it.
func FailAfter(limit int64, err error) (restore func()) {
	faults.Lock()
	defer faults.Unlock()
	prev := faults.d
	faults.d = &diskFault{limit: max(limit, 0), err: err}
	return func() {
		faults.Lock()
		defer faults.Unlock()
		faults.d = prev
	}
}

// StallAfter makes every file Write stages from now on block for good
// once limit bytes of it are written, as a hung network disk does, until
// the returned function is called (writes already blocked stay so);
// stalled, if set, is called as each write blocks. It is for process
// tests of an interrupt in the middle of a save; nothing else calls it.
func StallAfter(limit int64, stalled func()) (restore func()) {
	faults.Lock()
	defer faults.Unlock()
	prev := faults.d
	faults.d = &diskFault{limit: max(limit, 0), stall: true, stalled: stalled}
	return func() {
		faults.Lock()
		defer faults.Unlock()
		faults.d = prev
	}
}

// syncDirs fsyncs the directories holding files so the renames are durable.
// It is best effort: not every file system can sync a directory.
func syncDirs(files []File) {
	done := map[string]bool{}
	for _, o := range files {
		dir := filepath.Dir(o.Path)
		if done[dir] {
			continue
		}
		done[dir] = true
		if d, err := os.Open(dir); err == nil {
			d.Sync()
			d.Close()
		}
	}
}

// unwrapPath drops the operation and path of an *fs.PathError, which name a
// temporary file the user never asked for; callers name the real file.
// Cause drops the *PathError or *LinkError wrapper of err, for messages
// that already name the path.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// WriteBytes saves data to path atomically.
func WriteBytes(path string, data []byte) error {
	return Write(File{Path: path, Fill: func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}})
}

// WriteJSON saves v as indented JSON with a final newline to path,
// atomically.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteBytes(path, append(b, '\n'))
}

// CheckDir reports whether path's directory exists, so a long computation
// can refuse an output it could not save before it starts.
func CheckDir(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: directory %s: %w: create it first", path, dir, Cause(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	return nil
}
