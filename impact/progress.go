package impact

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay is how long a scan runs before it shows progress: short
// scans stay silent.
const progressDelay = time.Second

// progress prints a one-line scan status to a terminal, rewriting it in
// place, once the scan has taken longer than progressDelay. A nil
// *progress does nothing.
type progress struct {
	w       io.Writer
	repos   int
	done    atomic.Int64
	commits atomic.Int64
	stop    chan struct{}
	wg      sync.WaitGroup
	printed bool // owned by the printing goroutine until wg.Wait returns
}

func startProgress(w io.Writer, repos int, delay, every time.Duration) *progress {
	if w == nil {
		return nil
	}
	p := &progress{w: w, repos: repos, stop: make(chan struct{})}
	p.wg.Add(1)
	go p.run(delay, every)
	return p
}

func (p *progress) run(delay, every time.Duration) {
	defer p.wg.Done()
	select {
	case <-p.stop:
		return
	case <-time.After(delay):
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		p.print()
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
	}
}

func (p *progress) print() {
	p.printed = true
	fmt.Fprintf(p.w, "\rimpact: %d/%d repos scanned, %d commits read", p.done.Load(), p.repos, p.commits.Load())
}

func (p *progress) commit() {
	if p != nil {
		p.commits.Add(1)
	}
}

func (p *progress) repoDone() {
	if p != nil {
		p.done.Add(1)
	}
}

// finish stops the ticker and ends the status line if one was shown.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.printed {
		p.print()
		fmt.Fprintln(p.w)
	}
}
