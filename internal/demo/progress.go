package demo

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// progressLine reports a long load. On a terminal it redraws one line
// (\r) at most every tick; anywhere else (a log file, a pipe, CI) it
// writes a plain line every few seconds, never a \r frame. The rate is
// the average since the start, so it is sensible from the first batch,
// which is small for that reason (LoadPersons).
type progressLine struct {
	w     io.Writer
	label string
	total int
	tty   bool
	every time.Duration
	now   func() time.Time
	start time.Time
	last  time.Time // when a line was last written
}

const (
	progressTickTTY   = 200 * time.Millisecond
	progressTickPlain = 5 * time.Second
)

func newProgress(w io.Writer, label string, total int, now func() time.Time) *progressLine {
	p := &progressLine{w: w, label: label, total: total, now: now, every: progressTickPlain}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty, p.every = true, progressTickTTY
	}
	p.start = now()
	p.write(0)
	return p
}

// update reports done of total when a line is due.
func (p *progressLine) update(done int) {
	if p.now().Sub(p.last) >= p.every {
		p.write(done)
	}
}

// finish writes the last line, always.
func (p *progressLine) finish(done int) {
	p.write(done)
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

func (p *progressLine) write(done int) {
	p.last = p.now()
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.text(done))
		return
	}
	fmt.Fprintln(p.w, p.text(done))
}

// text is "persons of DEMO: 40000/1000000 (4%), 8012 persons/s, about 2m0s left".
func (p *progressLine) text(done int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d (%d%%)", p.label, done, p.total, done*100/max(p.total, 1))
	elapsed := p.now().Sub(p.start)
	switch {
	case done >= p.total:
		fmt.Fprintf(&b, ", done in %s", elapsed.Round(time.Second))
	case done == 0 || elapsed <= 0:
		b.WriteString(", starting")
	default:
		rate := float64(done) / elapsed.Seconds()
		left := time.Duration(float64(p.total-done) / rate * float64(time.Second))
		fmt.Fprintf(&b, ", %.0f persons/s, about %s left", rate, roundETA(left))
	}
	return b.String()
}

// roundETA rounds an estimate to what it can tell: seconds under a minute,
// tens of seconds under an hour, minutes beyond.
func roundETA(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	if d < time.Hour {
		return d.Round(10 * time.Second)
	}
	return d.Round(time.Minute)
}
