package rpc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// A connection's frame begun and never finished (a client stopped mid-write, or one sending a byte now and
// then) would hold what it had read of it, up to the frame's bound, for as long as the connection stays
// open: three connections each holding 100 MB once pinned 459 MB. So on an input that can take a read
// deadline (a socket), a frame whose first byte has come must come whole within Options.FrameTimeout of
// waiting for the input; past it the connection ends and what it held is let go. The time counts only while
// the read waits on the peer, never while a handler runs, and an idle connection, between frames, has no
// deadline at all.

// ErrFrameStalled: a frame begun waited FrameTimeout for the rest of its bytes, and its connection ended.
var ErrFrameStalled = errors.New("a partial frame stalled")

// deadliner is an input a read deadline can be set on (a net.Conn).
type deadliner interface {
	SetReadDeadline(time.Time) error
}

// frameClock is the input as the frame reader reads it, with the partial frame's deadline set on each read.
type frameClock struct {
	r     io.Reader
	d     deadliner
	limit time.Duration

	mu      sync.Mutex
	inFrame bool          // a frame's first bytes were read and the frame is not done
	waited  time.Duration // how long reads waited on the peer since then
	armed   bool          // a deadline is set on d
}

// withFrameClock is r with the partial-frame deadline when it can take one and limit is set; else r.
func withFrameClock(r io.Reader, limit time.Duration) (io.Reader, *frameClock) {
	d, ok := r.(deadliner)
	if !ok || limit <= 0 {
		return r, nil
	}
	c := &frameClock{r: r, d: d, limit: limit}
	return c, c
}

func (c *frameClock) Read(p []byte) (int, error) {
	c.mu.Lock()
	in, left, armed := c.inFrame, c.limit-c.waited, c.armed
	c.mu.Unlock()
	switch {
	case in:
		_ = c.d.SetReadDeadline(time.Now().Add(max(left, 0)))
		armed = true
	case armed:
		_ = c.d.SetReadDeadline(time.Time{})
		armed = false
	}
	start := time.Now()
	n, err := c.r.Read(p)
	c.mu.Lock()
	c.armed = armed
	if in {
		c.waited += time.Since(start)
	}
	if n > 0 {
		c.inFrame = true
	}
	c.mu.Unlock()
	if in && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, fmt.Errorf("%w: it waited %s for the rest of its bytes: %w", ErrFrameStalled, c.limit, err)
	}
	return n, err
}

// frameDone tells the clock a frame was read whole; buffered is what the reader holds of the next one
// already (then its clock starts now).
func (c *frameClock) frameDone(buffered int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.inFrame, c.waited = buffered > 0, 0
	c.mu.Unlock()
}
