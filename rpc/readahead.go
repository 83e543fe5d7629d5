package rpc

import (
	"io"
	"sync"
	"time"
)

// Handlers run on the read loop, so while one is busy nobody reads the input, and a host that hangs up
// meanwhile goes unnoticed until the handler returns — 14.6 s once, or never for a handler that hangs.
// So when a handler has run for slowHandler, a watcher reads the input ahead on its own goroutine: the
// bytes it gets are kept for the read loop, and the end of the input stops the connection at once.
// Reading stays on the read loop otherwise, where it costs no goroutine hand-off per request.

// slowHandler is how long a handler runs before the input is watched for the host hanging up.
const slowHandler = 100 * time.Millisecond

// maxReadAhead bounds what a watcher reads ahead of a busy handler: past it the watcher stops, so a host
// pipelining requests behind a slow one is held back rather than buffered without end.
const maxReadAhead = 1 << 20

// aheadReader is the input as the frame reader sees it: the bytes a watcher read ahead, then the input
// itself. Reads of the input are one at a time (rmu), and what a watcher reads is appended to pending in
// order; the frame reader takes pending first, so it never waits on a watcher's Read while bytes the
// watcher already read are there for it.
type aheadReader struct {
	r   io.Reader
	rmu sync.Mutex // held for the length of a Read of r

	mu      sync.Mutex // guards pending and err; never held across a Read of r
	pending []byte     // read ahead, not yet handed to the frame reader
	err     error      // the input's end or failure, seen by a watcher
}

func (a *aheadReader) Read(p []byte) (int, error) {
	if n, err, ok := a.take(p); ok {
		return n, err
	}
	a.rmu.Lock()
	defer a.rmu.Unlock()
	// A watcher's Read may have finished while this one waited for rmu.
	if n, err, ok := a.take(p); ok {
		return n, err
	}
	return a.r.Read(p)
}

// take hands over what was read ahead, or the error a watcher saw; ok is false when there is neither.
func (a *aheadReader) take(p []byte) (n int, err error, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.pending) > 0 {
		n = copy(p, a.pending)
		a.pending = a.pending[n:]
		if len(a.pending) == 0 {
			a.pending = nil
		}
		return n, nil, true
	}
	if a.err != nil {
		return 0, a.err, true
	}
	return 0, nil, false
}

// readAhead reads one chunk of the input into pending. It reports the input's end or failure, and
// whether pending is full.
func (a *aheadReader) readAhead() (full bool, err error) {
	a.rmu.Lock()
	defer a.rmu.Unlock()
	a.mu.Lock()
	full, err = len(a.pending) >= maxReadAhead, a.err
	a.mu.Unlock()
	if full || err != nil {
		return full, err
	}
	buf := make([]byte, readBufferSize)
	n, err := a.r.Read(buf)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending = append(a.pending, buf[:n]...)
	a.err = err
	return len(a.pending) >= maxReadAhead, err
}

// armWatch sets the watch timer going for handler seq, unless it is pending already (for an earlier
// handler: watchTick then re-arms it for this one).
func (c *Conn) armWatch(seq uint64) {
	if c.watchArmed.CompareAndSwap(false, true) {
		c.watchFor.Store(seq)
		c.watch.Reset(slowHandler)
	}
}

// watchTick is the watch timer going off. The handler it was armed for still running has run for
// slowHandler: the input is watched. A later handler running began less than slowHandler ago: the timer
// is armed for it, so a handler is watched between one and two slowHandlers after it began. No handler
// running: the timer rests until the next one begins.
func (c *Conn) watchTick() {
	armedFor := c.watchFor.Load()
	c.watchArmed.Store(false)
	if !c.handling.Load() {
		return
	}
	if seq := c.handlerSeq.Load(); seq != armedFor {
		c.armWatch(seq)
		return
	}
	c.watchInput()
}

// watchInput runs once a handler has been busy for slowHandler: it reads ahead while the handler runs,
// and stops the stream when the input ends. Only one watcher runs at a time.
func (c *Conn) watchInput() {
	if !c.watching.CompareAndSwap(false, true) {
		return
	}
	defer c.watching.Store(false)
	for c.handling.Load() && c.s.cause() == nil {
		full, err := c.s.ahead.readAhead()
		if err != nil {
			c.s.shutdown(inputEnded(err))
			return
		}
		if full {
			return
		}
	}
}
