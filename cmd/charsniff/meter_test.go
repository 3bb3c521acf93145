package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestMeteredReadSeeker checks that a metered WARC source counts every
// byte read, also after a Seek, and seeks its own reader.
func TestMeteredReadSeeker(t *testing.T) {
	p := newProgressAt(io.Discard, "sniffing", time.Now)
	m := &meter{p: p}
	src := strings.NewReader("0123456789")
	var r io.ReadSeeker = meteredReadSeeker{meteredReader{src, m}, src}
	head := make([]byte, 4)
	if n, err := io.ReadFull(r, head); n != 4 || err != nil {
		t.Fatalf("ReadFull = %d, %v, want 4, nil", n, err)
	}
	if at, err := r.Seek(2, io.SeekStart); at != 2 || err != nil {
		t.Fatalf("Seek(2) = %d, %v, want 2, nil", at, err)
	}
	rest, err := io.ReadAll(r)
	if string(rest) != "23456789" || err != nil {
		t.Errorf("after Seek(2): read %q, %v, want %q", rest, err, "23456789")
	}
	if m.n != 10 || p.done != 10 {
		t.Errorf("counted %d bytes (progress %d), want 10: the input to its end, bytes 2 and 3 once", m.n, p.done)
	}
}

// fakeClock is a clock that moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// frames returns the frames drawn into out, the last one first (each frame
// starts with a carriage return).
func frames(out string) []string {
	var fs []string
	for _, f := range strings.Split(out, "\r") {
		if f = strings.TrimSpace(f); f != "" {
			fs = append(fs, f)
		}
	}
	return fs
}

// checkNoStepBack fails t if a frame of out shows fewer bytes done than
// the one before.
func checkNoStepBack(t *testing.T, out string) {
	t.Helper()
	last := -1.0
	for _, f := range frames(out) {
		i := strings.Index(f, "(")
		if i < 0 {
			continue
		}
		var v float64
		if _, err := fmt.Sscanf(f[i+1:], "%g", &v); err != nil {
			continue
		}
		if v < last {
			t.Errorf("the bar stepped back, %g after %g: %q", v, last, f)
		}
		last = v
	}
}

// TestProgressClock checks the bar on a fake clock: nothing before the
// delay, then the rate of the bytes done over the run's time from the
// first frame (no rate of a few bytes a second from a first short
// measure, no ETA of hours), throttled drawing, and a count that never
// steps back when an input is counted down to its size.
func TestProgressClock(t *testing.T) {
	defer func(d, th time.Duration) { progressDelay, progressThrottle = d, th }(progressDelay, progressThrottle)
	progressDelay, progressThrottle = time.Second, 100*time.Millisecond
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	var out strings.Builder
	p := newProgressAt(&out, "sniffing", clock.now)
	p.setTotal(4, 10_000_000)
	clock.t = clock.t.Add(500 * time.Millisecond)
	p.addBytes(1)
	if out.Len() != 0 {
		t.Fatalf("drawn before the delay: %q", out.String())
	}
	clock.t = clock.t.Add(500 * time.Millisecond)
	p.addBytes(2_000_000 - 1)
	want := "sniffing, 0/4 files done  20% |██████                        | (2.0/10 MB, 2.0 MB/s) [1s:4s]"
	if fs := frames(out.String()); len(fs) != 1 || fs[0] != want {
		t.Fatalf("first frame, a second in, 2 MB done:\n%q\nwant %q", fs, want)
	}
	// Within the throttle: not drawn.
	clock.t = clock.t.Add(50 * time.Millisecond)
	p.addBytes(1000)
	if n := len(frames(out.String())); n != 1 {
		t.Errorf("%d frames after a change within the throttle, want 1", n)
	}
	// An input counted down to its size (it was read past it): the bar
	// stays where it was.
	clock.t = clock.t.Add(time.Second)
	p.addBytes(-500_000)
	p.inputDone()
	clock.t = clock.t.Add(time.Second)
	p.addBytes(1_000_000)
	fs := frames(out.String())
	if got, want := fs[len(fs)-1], "sniffing, 1/4 files done  25% |███████                       | (2.5/10 MB, 820 kB/s) [3s:9s]"; got != want {
		t.Errorf("last frame:\n%q\nwant %q", got, want)
	}
	checkNoStepBack(t, out.String())
	p.finish()
	if s := out.String(); !strings.HasSuffix(s, "\r") {
		t.Errorf("finish left the bar on the terminal: %q", s[max(0, len(s)-100):])
	}
}
