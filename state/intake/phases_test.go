package intake

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestPhasesOfOracle(t *testing.T) {
	for _, c := range lgSpawnsOracle(t, "phasesOf") {
		var script string
		if err := json.Unmarshal(c.Arg, &script); err != nil {
			t.Fatal(err)
		}
		got := lgGeneric(t, PhasesOf(script))
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("PhasesOf(%q) = %v; want %v (%s)", script, got, c.Want, c.Fix)
		}
	}
}

// Each rule ContextSaver states for reading a workflow's phases, and the fixes protocol.md lists under "Differences from ContextSaver".
func TestPhasesOfRules(t *testing.T) {
	cases := []struct {
		rule, script string
		want         []string
	}{
		{"bare strings", `const meta = { phases: ['a', "b", ` + "`c`" + `] }`, []string{"a", "b", "c"}},
		{"an object's title", `meta = { phases: [{ title: 'Plan', agents: 2 }, { title: "Build" }] }`, []string{"Plan", "Build"}},
		{"an element of any other shape: none", `const meta = { phases: ['a', 5] }`, []string{}},
		{"an object without a string title: none", `const meta = { phases: [{ name: 'x' }] }`, []string{}},
		{"phases not an array: none", `const meta = { phases: 'a' }`, []string{}},
		{"no meta: none", `const x = { phases: ['a'] }`, []string{}},
		{"a literal left open: none", `const meta = { phases: ['a', 'b'`, []string{}},
		{"a string left open stops the lexer", `const meta = { phases: ['unclosed ]}`, []string{}},
		{"comments skipped", "// meta = { phases: ['c'] }\nconst meta = { /* phases: ['no'] */ phases: ['yes' /* c */, 'z' // d\n] }", []string{"yes", "z"}},
		{"a block comment left open stops the lexer", `/* meta = { phases: ['a'] }`, []string{}},
		{"a key at depth one only", `const meta = { nested: { phases: ['inner'] }, phases: ['outer'] }`, []string{"outer"}},
		{"a nested key is not meta's", `const meta = { nested: { phases: ['inner'] } }`, []string{}},
		{"a quoted key", `const meta = { 'phases': ['q'] }`, []string{"q"}},
		{"the first meta", "let meta = { phases: ['first'] }\nmeta = { phases: ['second'] }", []string{"first"}},
		{"a trailing comma", `const meta = { phases: [{title:'a'},] }`, []string{"a"}},
		{"empty", `const meta = { phases: [] }`, []string{}},
		// A difference from ContextSaver (protocol.md): a typed declaration.
		{"typed meta", `const meta: Meta = { phases: ['typed'] }`, []string{"typed"}},
		{"typed meta, object type", `const meta: { phases: string[] } = { phases: ['t2'] }`, []string{"t2"}},
		{"typed meta, generic type", `const meta: Record<string, unknown> = { phases: ['t3'] }`, []string{"t3"}},
		{"typed meta, function type", `const meta: () => void = { phases: ['t4'] }`, []string{"t4"}},
		{"an object key meta is no declaration", `export default { meta: { phases: ['obj'] }, x = { phases: ['no'] } }`, []string{}},
		// A difference from ContextSaver (protocol.md): escapes decoded.
		{"escapes", `const meta = { phases: ['new\nline', 'tab\tx', 'q\'s', "d\"q", 'bs\\', 'hex\x41', 'u\u0042', 'cp\u{1F600}', 'unk\q', 'nul\0', 'pair\uD83D\uDE00', 'lone\uD800', 'bad\xZZ', 'cr\r'] }`,
			[]string{"new\nline", "tab\tx", "q's", `d"q`, `bs\`, "hexA", "uB", "cp😀", "unkq", "nul\x00", "pair😀", "lone\uFFFD", "badxZZ", "cr\r"}},
		{"a line continuation", "const meta = { phases: ['esc\\\nline'] }", []string{"escline"}},
	}
	for _, c := range cases {
		if got := PhasesOf(c.script); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: PhasesOf(%q) = %q; want %q", c.rule, c.script, got, c.want)
		}
	}
}

func FuzzPhasesOf(f *testing.F) {
	for _, s := range []string{
		`const meta = { phases: ['a', { title: "b" }] }`,
		`const meta: Meta<{ x: [] }> = { phases: [{title:'x', sub: {title: 'y'}}] }`,
		"meta = { phases: [ { ] } ] }",
		`meta = {phases:['\u{110000}', '\uD83D\u', '\x4']}`,
		"/* open",
		"meta = { phases: [{title:",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if PhasesOf(script) == nil {
			t.Fatal("nil phases")
		}
	})
}
