package demo

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// Not on a terminal: plain lines, one every few seconds, never a \r; the
// rate and estimate are there from the first update.
func TestProgressPlainLines(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var out bytes.Buffer
	p := newProgress(&out, "persons of DEMO", 100_000, clock)
	now = now.Add(800 * time.Millisecond)
	p.update(500) // the first small batch: too soon for a line
	now = now.Add(5 * time.Second)
	p.update(29_000)
	now = now.Add(time.Second)
	p.update(30_000) // too soon again
	now = now.Add(5 * time.Second)
	p.update(50_000)
	now = now.Add(time.Second)
	p.finish(100_000)
	got := out.String()
	if strings.Contains(got, "\r") || strings.Contains(got, "\x1b") {
		t.Fatalf("terminal frames in plain output: %q", got)
	}
	want := []string{
		"persons of DEMO: 0/100000 (0%), starting",
		"persons of DEMO: 29000/100000 (29%), 5000 persons/s, about 14s left",
		"persons of DEMO: 50000/100000 (50%), 4237 persons/s, about 12s left",
		"persons of DEMO: 100000/100000 (100%), done in 13s",
	}
	if lines := strings.Split(strings.TrimSpace(got), "\n"); strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestProgressETARounding(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1500 * time.Millisecond: "2s", 754 * time.Second: "12m30s", 3*time.Hour + 29*time.Second: "3h0m0s",
	} {
		if got := roundETA(d).String(); got != want {
			t.Errorf("%v: %s, want %s", d, got, want)
		}
	}
}
