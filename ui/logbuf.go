package ui

import (
	"fmt"
	"orogen/app/session"
	"os"
	"strings"
	"time"
)

// The log's levels are the session's.
const (
	levelInfo  = session.Info
	levelWarn  = session.Warn
	levelError = session.Error
)

var levelNames = [...]string{"info", "warn", "error"}

type logLine struct {
	t    time.Time
	lvl  session.Level
	text string
}

// logBuf is the Log panel's history: the newest maxLog lines. Errors are
// also written to stderr, so a failed script session leaves a trace.
type logBuf struct {
	lines  []logLine
	scroll bool
}

const maxLog = 1000

func (l *logBuf) add(lvl session.Level, format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	l.lines = append(l.lines, logLine{time.Now(), lvl, s})
	if len(l.lines) > maxLog {
		l.lines = append(l.lines[:0], l.lines[len(l.lines)-maxLog:]...)
	}
	l.scroll = true
	if lvl >= levelWarn {
		fmt.Fprintf(os.Stderr, "orogen: %s: %s\n", levelNames[lvl], s)
	}
}

// contains reports whether some line holds s.
func (l *logBuf) contains(s string) bool {
	for _, ln := range l.lines {
		if strings.Contains(ln.text, s) {
			return true
		}
	}
	return false
}
