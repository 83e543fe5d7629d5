package textview

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/state/view"
)

// TestSavingToldAsTheToastTellsIt: the band and the pane's Saved row tell a saving in the saved toast's
// figures (a time under a second in tenths, a share under 0.1 % as its tokens), never "0s" beside a toast
// that said +0.3s; and a dollar figure under a hundredth of a cent is never "$0.0000".
func TestSavingToldAsTheToastTellsIt(t *testing.T) {
	for _, c := range []struct {
		pct, chars, ms float64
		want           string
	}{
		{0, 61, 300, "saved · ~15 tokens of context · 0.3s"},
		{0.6, 2_400, 62_000, "saved · ~0.6% of context · 1m 2s"},
		{0, 0, 40, "saved · 40ms"},
	} {
		band := BandAs(view.BandModel{State: view.BandSaved, SavedPct: c.pct, SavedChars: c.chars, SavedMs: c.ms}, 200, "/saver")
		if !strings.Contains(band, c.want) {
			t.Errorf("band %q, want %q", band, c.want)
		}
		pane := PaneAs(view.PaneModel{Header: view.Header{SavedPct: c.pct, SavedChars: c.chars, SavedMs: c.ms}}, 100, "/saver")
		if row := "Saved    " + strings.TrimPrefix(c.want, "saved · "); !strings.Contains(pane, row) {
			t.Errorf("pane:\n%s\nwant the row %q", pane, row)
		}
		if toast := "+" + PreciseDuration(c.ms); !strings.Contains(c.want, strings.TrimPrefix(toast, "+")) {
			t.Errorf("the toast says %s, the band %q", toast, band)
		}
	}
	for _, c := range []struct {
		usd  float64
		want string
	}{{0, "$0"}, {0.0000064, "$0.000006"}, {0.00000004, "under $0.000001"}, {0.0048, "$0.0048"}, {0.31, "$0.31"}} {
		if got := view.USD(c.usd); got != c.want {
			t.Errorf("USD(%v) = %q, want %q", c.usd, got, c.want)
		}
	}
}
