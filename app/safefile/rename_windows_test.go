package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Saving over a file another program holds open (without
// FILE_SHARE_DELETE, as os.Open and most Windows programs open files):
// the save fails with an error naming the file and saying what to do, the
// old file stays whole and no temporary file is left; once the other
// program lets go, the save succeeds. Runs under Wine (package wintest).
func TestWriteOverOpenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "gelände.json")
	if err := WriteBytes(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	err = WriteBytes(p, []byte("new"))
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "open in another program") {
		f.Close()
		t.Fatalf("saving over an open file: got %v; want an error naming %s and saying it is open in another program", err, p)
	}
	f.Close()
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("after the failed save the file holds %q; want the old content", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("folder holds %d files after the failed save; want 1 (no temporary file)", len(ents))
	}
	if err := WriteBytes(p, []byte("new")); err != nil {
		t.Fatalf("saving again once the file is closed: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new" {
		t.Errorf("file holds %q; want the new content", got)
	}
}
