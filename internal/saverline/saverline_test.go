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

// TestParse: the spelling typed comes back with the args, and a harness's own spelling names its plugin's.
func TestParse(t *testing.T) {
	for _, c := range []struct{ prompt, name, args string }{
		{"/saver check", Slash, "check"},
		{"  /saver:saver fix 1", Plugin(Slash), "fix 1"},
		{"$saver", Dollar, ""},
		{"$saver:saver ignore 2", Plugin(Dollar), "ignore 2"},
	} {
		name, args, ok := Parse(c.prompt)
		if !ok || name != c.name || args != c.args {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q", c.prompt, name, args, ok, c.name, c.args)
		}
	}
	if Plugin(Slash) != "/saver:saver" || Plugin(Dollar) != "$saver:saver" {
		t.Fatalf("Plugin: %q %q", Plugin(Slash), Plugin(Dollar))
	}
}
