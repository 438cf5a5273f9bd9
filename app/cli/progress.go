package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is the progress of a headless run on stderr (`orogen run`,
// `orogen erode`): a bar on a terminal, lines elsewhere (NewProgress); a
// nil writer draws nothing. As a run.Meter (progressMeter) it starts when
// the run knows its step count.
type Progress struct {
	pb    *progressbar.ProgressBar
	lines *progressLines
}

// NewProgress returns the progress of steps steps described by desc,
// written to w: on a terminal a bar redrawn in place; into a file or a
// pipe, where carriage returns would pile up on one line, a line on the
// first step and then at most one every ProgressEvery.
func NewProgress(w io.Writer, steps int, desc string) Progress {
	if w == nil {
		return Progress{}
	}
	if !isTerminal(w) {
		return Progress{lines: &progressLines{w: w, total: steps}}
	}
	return Progress{pb: progressbar.NewOptions(steps,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("steps"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100e6),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// ProgressEvery is how often a progress that is not on a terminal prints
// a line.
const ProgressEvery = 5 * time.Second

// progressLines is a Progress written as lines.
type progressLines struct {
	w        io.Writer
	n, total int
	last     time.Time
}

// isTerminal reports whether w is a terminal (a character device that is
// not /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	return f.Name() != os.DevNull
}

// Step counts one step and sets the description.
func (b Progress) Step(desc string) {
	if l := b.lines; l != nil {
		l.n++
		if now := time.Now(); l.n == 1 || now.Sub(l.last) >= ProgressEvery {
			l.last = now
			fmt.Fprintf(l.w, "step %d of %d (%d%%): %s\n", l.n, l.total, 100*l.n/max(l.total, 1), strings.Join(strings.Fields(desc), " "))
		}
		return
	}
	if b.pb == nil {
		return
	}
	b.pb.Describe(desc)
	b.pb.Add(1)
}

// Done finishes the bar.
func (b Progress) Done() {
	if b.pb != nil {
		b.pb.Finish()
	}
}

// progressMeter is a run.Meter drawing a Progress to w.
type progressMeter struct {
	w io.Writer
	p Progress
}

func (m *progressMeter) Start(steps int, desc string) { m.p = NewProgress(m.w, steps, desc) }
func (m *progressMeter) Step(desc string)             { m.p.Step(desc) }
func (m *progressMeter) Done()                        { m.p.Done() }
