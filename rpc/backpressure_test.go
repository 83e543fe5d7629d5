package rpc

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// largestWrite records every Write and the largest one.
type largestWrite struct {
	mu      sync.Mutex
	total   int
	largest int
}

func (w *largestWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total += len(p)
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

// TestPipelinedRepliesAreNotHeldWithoutBound: replies to pipelined requests were held until the input
// ran dry and then written at once, so a host sending requests faster than it read grew the daemon
// without bound (83 KB of debug.state requests held 1.86 GB). Past maxHeld the replies are written,
// and the read loop waits for the host to take them.
func TestPipelinedRepliesAreNotHeldWithoutBound(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	var reqs strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&reqs, `{"jsonrpc":"2.0","id":%d,"method":"big"}`+"\n", i)
	}
	out := &largestWrite{}
	c := NewConn(io.NopCloser(strings.NewReader(reqs.String())), out, Options{})
	c.Serve(context.Background(), func(context.Context, Request) (any, error) { return big, nil })
	waitDone(t, c, waitFor)
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.total < 100*len(big) {
		t.Fatalf("wrote %d bytes, want every reply", out.total)
	}
	if out.largest > maxHeld+len(big)+100 {
		t.Fatalf("one write of %d bytes: replies were held past the %d-byte cap", out.largest, maxHeld)
	}
}
