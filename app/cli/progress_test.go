package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressNotOnTerminal: into a file or a pipe (here a buffer) the
// progress is lines, never a bar redrawn with carriage returns: the first
// step prints one, the next only after ProgressEvery (issue 30.8).
func TestProgressNotOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 500, "eroding")
	for range 500 {
		p.Step("eroding  max|Δh| 1 m")
	}
	p.Done()
	out := buf.String()
	if strings.ContainsAny(out, "\r\x1b") {
		t.Fatalf("carriage returns or escapes in a non-terminal progress: %q", out)
	}
	if !strings.HasPrefix(out, "step 1 of 500 (0%): eroding max|Δh| 1 m\n") {
		t.Errorf("progress %q; want a first line for step 1", out)
	}
}
