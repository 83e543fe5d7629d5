package impact

import (
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
)

func TestProgress(t *testing.T) {
	var quick testfake.LockedBuffer
	p := startProgress(&quick, 2, time.Hour, time.Millisecond)
	p.commit()
	p.finish()
	if quick.String() != "" {
		t.Errorf("a scan shorter than the delay printed %q", quick.String())
	}

	var slow testfake.LockedBuffer
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
