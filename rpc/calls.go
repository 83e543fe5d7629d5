package rpc

import "sync"

// calls are our requests to the peer that await a reply. Only the first reply to a call still awaited
// is delivered; a second one, or one for a call that gave up, is dropped.
type calls struct {
	mu      sync.Mutex
	last    int64
	pending map[int64]chan *reply // each buffered for its one reply
}

func newCalls() *calls { return &calls{pending: make(map[int64]chan *reply)} }

// add registers a new call before it is sent (so its reply cannot come first) and returns its id
// and where its reply arrives.
func (t *calls) add() (int64, <-chan *reply) {
	ch := make(chan *reply, 1)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last++
	t.pending[t.last] = ch
	return t.last, ch
}

// settle hands r to the call it answers and reports whether one was waiting.
func (t *calls) settle(r *reply) bool {
	if !r.idOK {
		return false
	}
	t.mu.Lock()
	ch, ok := t.pending[r.id]
	delete(t.pending, r.id)
	t.mu.Unlock()
	if ok {
		ch <- r // never blocks: the one reply this buffered channel takes
	}
	return ok
}

// forget drops call id, answered or abandoned, so a late reply is dropped and nothing leaks.
func (t *calls) forget(id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pending, id)
}
