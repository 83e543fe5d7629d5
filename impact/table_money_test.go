package impact

import "testing"

// TestMoney: impact's tables write dollars with their sign, a negative amount with the minus sign before
// the dollar (textout.Negative), and what is under a cent to as many places as it takes.
func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0.29, "$0.29"}, {2, "$2.00"}, {0.0042, "$0.0042"}, {0, "$0.00"}, {-0.01, "−$0.01"}, {-0.0042, "−$0.0042"},
	} {
		if got := money(tc.x); got != tc.want {
			t.Errorf("money(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
