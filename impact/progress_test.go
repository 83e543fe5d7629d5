package impact

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the progress goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgress(t *testing.T) {
	var quick syncBuffer
	p := startProgress(&quick, 2, time.Hour, time.Millisecond)
	p.commit()
	p.finish()
	if quick.String() != "" {
		t.Errorf("a scan shorter than the delay printed %q", quick.String())
	}

	var slow syncBuffer
	p = startProgress(&slow, 2, 0, time.Millisecond)
	for i := 0; i < 3; i++ {
		p.commit()
	}
	p.repoDone()
	time.Sleep(20 * time.Millisecond)
	p.finish()
	if out := slow.String(); !strings.HasPrefix(out, "\rimpact: ") || !strings.HasSuffix(out, "1/2 repos scanned, 3 commits read\n") {
		t.Errorf("progress = %q", out)
	}

	var none *progress // nil: Options.Progress not set
	none.commit()
	none.repoDone()
	none.finish()
}
