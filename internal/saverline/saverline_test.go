package saverline

import "testing"

func TestArgs(t *testing.T) {
	cases := []struct {
		prompt, args string
		ok           bool
	}{
		{"/saver", "", true},
		{"  /saver check ", "check", true},
		{"/saver fix 1 run only the changed tests", "fix 1 run only the changed tests", true},
		{"/saver\tignore 1", "ignore 1", true},
		{"/saver:saver check", "check", true},
		{"/saver:saver", "", true},
		{"$saver fix 2 only the cart tests", "fix 2 only the cart tests", true},
		{"$saver", "", true},
		{"$saver:saver debug", "debug", true},
		{" /saver check", "check", true},
		{"/savers", "", false},
		{"/saver:savers", "", false},
		{"/saver:", "", false},
		{"$savers check", "", false},
		{"/saverd:saver check", "", false},
		{"saver check", "", false},
		{"please /saver", "", false},
		{"fix the math", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		args, ok := Args(c.prompt)
		if args != c.args || ok != c.ok {
			t.Errorf("Args(%q) = %q, %v; want %q, %v", c.prompt, args, ok, c.args, c.ok)
		}
	}
}
