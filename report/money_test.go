package report

import (
	"strings"
	"testing"
)

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

// TestChartMoney: a chart's dollars are cents, with a tenth of a cent below a dollar only where cents
// would round the figure, so an axis's labels share their decimals.
func TestChartMoney(t *testing.T) {
	for v, want := range map[float64]string{0: "$0.00", 0.2: "$0.20", 0.1: "$0.10", 0.25: "$0.25", 0.093: "$0.093",
		0.0125: "$0.013", 0.0004: "<$0.001", 1.5: "$1.50", 12.345: "$12.35"} {
		if got := money(v); got != want {
			t.Errorf("money(%v) = %q, want %q", v, got, want)
		}
	}
	for top, want := range map[float64]string{0.18: "$0.00 $0.10 $0.20", 0.05: "$0.000 $0.025 $0.050", 0.0025: "$0.00000 $0.00125 $0.00250",
		40: "$0.00 $25.00 $50.00", 0.0004: "$0.00000 $0.00025 $0.00050"} {
		var got []string
		for _, l := range yAxis(niceCeil(top), inDollars) {
			got = append(got, l.Text)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("the axis of a $%v day: %q, want %q", top, got, want)
		}
	}
	var tokens []string
	for _, l := range yAxis(niceCeil(1800), inTokens) {
		tokens = append(tokens, l.Text)
	}
	if strings.Join(tokens, " ") != "0 1.0k 2.0k" {
		t.Errorf("a tokens axis: %q", tokens)
	}
}
