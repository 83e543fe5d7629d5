package report

import "testing"

// TestReportDollars: the page writes dollars as every figure saverd shows a person does (textout.Cents):
// a net that cost more than it saved reads "−$0.01", as in the pane, never "$-0.01".
func TestReportDollars(t *testing.T) {
	usd := funcs["usd"].(func(float64) string)
	optUSD := funcs["optUSD"].(func(*float64) string)
	neg := -0.0149
	for _, tc := range []struct{ got, want string }{
		{usd(-0.01), "−$0.01"}, {usd(0.29), "$0.29"}, {usd(0.001), "<$0.01"}, {optUSD(&neg), "−$0.01"}, {optUSD(nil), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
