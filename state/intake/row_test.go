package intake

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// lgGeneric round-trips v through JSON, so Go values compare with decoded expectations.
func lgGeneric(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func lgBashKey(command string) (string, state.CommandClass) {
	return Normalize("Bash", map[string]any{"command": command})
}

func TestLedgerNormalizeOracle(t *testing.T) {
	var cases []struct {
		Tool  string          `json:"tool"`
		Input json.RawMessage `json:"input"`
		Want  struct {
			Key string             `json:"key"`
			Cls state.CommandClass `json:"cls"`
		} `json:"want"`
		Fix string `json:"fix"`
	}
	statetest.ReadOracle(t, "oracle_normalize.json", &cases)
	if len(cases) < 500 {
		t.Fatalf("only %d oracle cases", len(cases))
	}
	for _, c := range cases {
		input, err := ObjectFromJSON(c.Input)
		if err != nil {
			t.Fatal(err)
		}
		key, cls := Normalize(c.Tool, input)
		if key != c.Want.Key || cls != c.Want.Cls {
			t.Errorf("Normalize(%s, %s) = %q, %s; want %q, %s (%s)", c.Tool, c.Input, key, cls, c.Want.Key, c.Want.Cls, c.Fix)
		}
		if c.Tool == "Bash" {
			if got := ClassOf(anyString(input["command"])); got != c.Want.Cls {
				t.Errorf("ClassOf(%s) = %s; want %s", c.Input, got, c.Want.Cls)
			}
		}
	}
}

// Each rule ContextSaver's ledger comments state, as a case.
func TestLedgerNormalizePluginRules(t *testing.T) {
	cases := []struct {
		rule, command, key string
		cls                state.CommandClass
	}{
		{"README example", "cd web && npm test 2>&1 | tail -5", "test:npm test", state.ClassTest},
		{"noise: cd <dir> &&", "cd web && git status", "git:git status", state.ClassGit},
		{"noise: VAR=value", "NODE_ENV=test npm test", "test:npm test", state.ClassTest},
		{"noise: VAR=\"quoted value\"", `A="a b" npm test`, "test:npm test", state.ClassTest},
		{"noise: VAR='quoted value'", `A='a b' npm test`, "test:npm test", state.ClassTest},
		{"noise: timeout <duration>", "timeout 30 npm test", "test:npm test", state.ClassTest},
		{"noise: timeout with a unit", "timeout 5m go test ./...", "test:go test ./...", state.ClassTest},
		{"noise: time", "time cargo build", "build:cargo build", state.ClassBuild},
		{"noise: stacked", "CI=true timeout 60s time npm run lint", "lint:npm run lint", state.ClassLint},
		{"noise: a fractional timeout is no noise", "timeout 1.5 npm test", "other:timeout 1.5 npm test", state.ClassOther},
		{"chain: &&", "npm run build && npm test", "build:npm run build", state.ClassBuild},
		{"chain: ;", "echo a; npm test", "test:npm test", state.ClassTest},
		{"chain: ||", "ls || npm test", "read:ls", state.ClassRead},
		{"chain: first classified segment", "echo start && npm test && git status", "test:npm test", state.ClassTest},
		{"filter cut: pipe", "git log | head", "git:git log", state.ClassGit},
		{"filter cut: redirect with fd digit", "npm test 2>&1", "test:npm test", state.ClassTest},
		{"filter cut: 2>/dev/null", "npm test 2>/dev/null", "test:npm test", state.ClassTest},
		{"filter cut: input redirect", "cat < input", "read:cat", state.ClassRead},
		{"filter cut: no space before", "git log|grep x", "git:git log", state.ClassGit},
		{"heads see the whole segment: npm test|x is no `npm test `", "npm test|grep x", "other:npm test|grep x", state.ClassOther},
		{"filter cut: an fd digit glued to a word goes with the redirect", "ls x2>f", "read:ls x", state.ClassRead},
		{"runner: npm run + script name", "npm run test", "test:npm run test", state.ClassTest},
		{"runner: bun run lint (script names)", "bun run lint", "lint:bun run lint", state.ClassLint},
		{"runner: bun x + table head", "bun x vitest", "test:bun x vitest", state.ClassTest},
		{"runner: npx + table head", "npx tsc -p .", "typecheck:npx tsc -p .", state.ClassTypecheck},
		{"runner: python -m", "python -m mypy .", "typecheck:python -m mypy .", state.ClassTypecheck},
		{"runner: python3 -m", "python3 -m pytest -x", "test:python3 -m pytest -x", state.ClassTest},
		{"runner: longest first (pnpm run, not pnpm)", "pnpm run lint", "lint:pnpm run lint", state.ClassLint},
		{"runner: pnpm script", "pnpm typecheck", "typecheck:pnpm typecheck", state.ClassTypecheck},
		{"runner: yarn format", "yarn format", "format:yarn format", state.ClassFormat},
		{"runner: script with args", "npm run lint -- --fix", "lint:npm run lint -- --fix", state.ClassLint},
		{"runner: unknown script", "npm run dev", "other:npm run dev", state.ClassOther},
		{"runner: script name must be whole", "npm run test:unit", "other:npm run test:unit", state.ClassOther},
		{"runner: alone", "npx", "other:npx", state.ClassOther},
		{"basename head", "venv/bin/python -m pytest", "test:venv/bin/python -m pytest", state.ClassTest},
		{"basename head: absolute", "/usr/bin/git log", "git:/usr/bin/git log", state.ClassGit},
		{"basename head: node_modules/.bin", "./node_modules/.bin/jest", "test:./node_modules/.bin/jest", state.ClassTest},
		{"token boundary: gitk is not git", "gitk", "other:gitk", state.ClassOther},
		{"token boundary: npm tests", "npm tests", "other:npm tests", state.ClassOther},
		{"two-token head", "npm i lodash", "install:npm i lodash", state.ClassInstall},
		{"table: search", "rg TODO src", "search:rg TODO src", state.ClassSearch},
		{"table: read", "sed -n '1,20p' a.ts", "read:sed -n '1,20p' a.ts", state.ClassRead},
		{"table: format", "gofmt -l .", "format:gofmt -l .", state.ClassFormat},
		{"table: install", "apt-get install -y jq", "install:apt-get install -y jq", state.ClassInstall},
		{"table: gh is git", "gh pr view 12", "git:gh pr view 12", state.ClassGit},
		{"other: the whole pipeline is the key", "echo hi | wc -c > out", "other:echo hi | wc -c > out", state.ClassOther},
		{"whitespace collapsed", "  npm   test  ", "test:npm test", state.ClassTest},
		{"empty", "", "other:", state.ClassOther},
	}
	for _, c := range cases {
		key, cls := lgBashKey(c.command)
		if key != c.key || cls != c.cls {
			t.Errorf("%s: %q → %q, %s; want %q, %s", c.rule, c.command, key, cls, c.key, c.cls)
		}
	}
}

// Quotes and heredocs in shell keys (protocol.md, "Differences from ContextSaver"), and the JavaScript accident of inherited script names.
func TestLedgerNormalizeKnownIssues(t *testing.T) {
	cases := []struct {
		issue, command, key string
		cls                 state.CommandClass
	}{
		{"quoted pipe is no cut", `grep -E "foo|bar" src/app.ts`, `search:grep -E "foo|bar" src/app.ts`, state.ClassSearch},
		{"single-quoted pipe is no cut", `grep 'a|b' f | wc -l`, `search:grep 'a|b' f`, state.ClassSearch},
		{"different greps, different keys", `grep -E "foo|baz" src/app.ts`, `search:grep -E "foo|baz" src/app.ts`, state.ClassSearch},
		{"&> is a redirect", "npm test &> log", "test:npm test", state.ClassTest},
		{"&>> is a redirect", "npm test &>> log", "test:npm test", state.ClassTest},
		{"quoted ; is no chain", `git commit -m "fix: a; b"`, `git:git commit -m "fix: a; b"`, state.ClassGit},
		{"quoted && is no chain", `FOO="a && b" npm test`, "test:npm test", state.ClassTest},
		{"quoted && inside an echo", `echo 'a && npm test'`, `other:echo 'a && npm test'`, state.ClassOther},
		{"escaped ; is no chain", `find . -name '*.go' -exec grep -l x {} \;`, `search:find . -name '*.go' -exec grep -l x {} \;`, state.ClassSearch},
		{"escaped | is no cut", `grep foo\|bar f`, `search:grep foo\|bar f`, state.ClassSearch},
		{"a substitution's pipe is its own", "npm test -- $(git diff --name-only | grep test)", "test:npm test -- $(git diff --name-only | grep test)", state.ClassTest},
		{"arithmetic is no heredoc or redirect", "npm test $((2>1))", "test:npm test $((2>1))", state.ClassTest},
		{"a comment's apostrophe opens no quote", "# don't\ncd web && npm test | tail", "test:npm test", state.ClassTest},
		{"heredoc: cat > f is a write", "cat > f <<'EOF'\nhello | x\nEOF", "other:cat > f <<'EOF'", state.ClassOther},
		{"heredoc: cat >> f is a write", "cat >> notes.md <<EOF\n- a && b\nEOF", "other:cat >> notes.md <<EOF", state.ClassOther},
		{"heredoc: target after the marker", "cat <<'EOF' > out.txt\nline | one\nEOF", "other:cat <<'EOF' > out.txt", state.ClassOther},
		{"heredoc: body never classifies", "bash <<EOF\nnpm test\nEOF", "other:bash <<EOF", state.ClassOther},
		{"heredoc: body never reaches the key", "python3 - <<'PY'\nimport os; print(1)\nPY", "other:python3 - <<'PY'", state.ClassOther},
		{"heredoc: inside a commit message", "git commit -m \"$(cat <<'EOF'\nfix: thing\n\nCo-Authored-By: x | y\nEOF\n)\"", `git:git commit -m "$(cat <<'EOF' )"`, state.ClassGit},
		{"heredoc: <<- strips tabs from the terminator", "cat <<-EOF\n\tbody; npm test\n\tEOF\nls", "read:cat", state.ClassRead},
		{"heredoc: two on one line", "cat <<A <<B\na && npm test\nA\nb\nB\necho done", "read:cat", state.ClassRead},
		{"heredoc: unterminated body runs to the end", "cat > f <<EOF\nnpm test", "other:cat > f <<EOF", state.ClassOther},
		{"heredoc: the chain before the body still counts", "cat <<EOF > f && npm test\nbody\nEOF", "test:npm test", state.ClassTest},
		{"heredoc: write after mkdir keeps the target", "mkdir -p d && cat > d/f.txt <<'EOF'\nhi\nEOF", "other:mkdir -p d && cat > d/f.txt <<'EOF'", state.ClassOther},
		{"here-string is no heredoc", "cat <<< 'x | y'", "read:cat", state.ClassRead},
		{"cat > f writes", "cat > f", "other:cat > f", state.ClassOther},
		{"cat a b > c writes", "cat a b > c", "other:cat a b > c", state.ClassOther},
		{"cat 1>f writes", "cat x 1>f", "other:cat x 1>f", state.ClassOther},
		{"cat >| f writes", "cat x >| f", "other:cat x >| f", state.ClassOther},
		{"cat &>f writes", "cat x &>f", "other:cat x &>f", state.ClassOther},
		{"cat >& file writes", "cat x >& out.txt", "other:cat x >& out.txt", state.ClassOther},
		{"cat | tee f writes", "cat x | tee out", "other:cat x | tee out", state.ClassOther},
		{"cat | tee -a f writes", "cat x | tee -a out.txt", "other:cat x | tee -a out.txt", state.ClassOther},
		{"cat | sudo tee f writes", "cat x | sudo tee /etc/hosts", "other:cat x | sudo tee /etc/hosts", state.ClassOther},
		{"cat | sudo -E tee -a f writes", "cat x | sudo -E tee -a out", "other:cat x | sudo -E tee -a out", state.ClassOther},
		{"cat | sudo tee still reads", "cat x | sudo tee", "read:cat x", state.ClassRead},
		{"cat | sudo grep still reads", "cat x | sudo grep y f", "read:cat x", state.ClassRead},
		{"cat | … > f writes", "cat x | sort | uniq -c > counts", "other:cat x | sort | uniq -c > counts", state.ClassOther},
		{"basename cat writes", "/bin/cat > f", "other:/bin/cat > f", state.ClassOther},
		{"tee f with a heredoc", "tee -a log <<EOF\nx\nEOF", "other:tee -a log <<EOF", state.ClassOther},
		{"cat 2> err still reads", "cat x 2> err.log", "read:cat x", state.ClassRead},
		{"cat 10>f still reads: fd 10, not stdout", "cat a.txt 10>f", "read:cat a.txt 1", state.ClassRead},
		{"cat 11>f still reads", "cat a.txt 11>f", "read:cat a.txt 1", state.ClassRead},
		{"cat 21>>f still reads", "cat a.txt 21>>f", "read:cat a.txt 2", state.ClassRead},
		{"cat 01>f writes: fd 1", "cat a.txt 01>f", "other:cat a.txt 01>f", state.ClassOther},
		{"cat x1>f writes: x1 is an argument", "cat a.txt x1>f", "other:cat a.txt x1>f", state.ClassOther},
		{"cat '1'0>f writes: a quoted word is no fd", "cat a.txt '1'0>f", "other:cat a.txt '1'0>f", state.ClassOther},
		{"cat > /dev/null still reads", "cat x > /dev/null", "read:cat x", state.ClassRead},
		{"cat >&2 still reads", "cat x >&2", "read:cat x", state.ClassRead},
		{"cat | tee still reads", "cat x | tee", "read:cat x", state.ClassRead},
		{"cat | tee /dev/stderr still reads", "cat x | tee /dev/stderr", "read:cat x", state.ClassRead},
		{"quoted > is no redirect", `cat '>' f`, `read:cat '>' f`, state.ClassRead},
		{"$'…' escapes its quote", `echo $'\'' && npm test`, "test:npm test", state.ClassTest},
		{"$'…' with an escape inside", `printf $'it\'s\n' && npm test`, "test:npm test", state.ClassTest},
		{"$'…' keeps its pipe", `grep $'a|\'b' f | wc -l`, `search:grep $'a|\'b' f`, state.ClassSearch},
		{"$'…' in a substitution", `echo $(printf $'\'') && npm test`, "test:npm test", state.ClassTest},
		{"$'…' inside double quotes is literal", `echo "$'" && npm test`, "test:npm test", state.ClassTest},
		{"JS accident: npm run constructor", "npm run constructor", "other:npm run constructor", state.ClassOther},
		{"JS accident: npm run __proto__", "npm run __proto__", "other:npm run __proto__", state.ClassOther},
		{"JS accident: npm run toString", "npm run toString", "other:npm run toString", state.ClassOther},
		// Known limits we keep.
		{"limit: a newline is whitespace", "cd web\nnpm test", "other:cd web npm test", state.ClassOther},
		{"limit: a chain's key is its first classified segment", "git add -A && git commit -m x", "git:git add -A", state.ClassGit},
	}
	for _, c := range cases {
		key, cls := lgBashKey(c.command)
		if key != c.key || cls != c.cls {
			t.Errorf("%s: %q → %q, %s; want %q, %s", c.issue, c.command, key, cls, c.key, c.cls)
		}
		if got := ClassOf(c.command); got != c.cls {
			t.Errorf("%s: ClassOf(%q) = %s; want %s", c.issue, c.command, got, c.cls)
		}
	}
}

func TestLedgerNormalizeTools(t *testing.T) {
	cases := []struct {
		tool  string
		input string
		key   string
		cls   state.CommandClass
	}{
		{"Read", `{"file_path":"/a.ts","offset":10,"limit":50}`, "/a.ts:10-50", state.ClassRead},
		{"Read", `{"file_path":"/a.ts"}`, "/a.ts:-", state.ClassRead},
		{"Read", `{"file_path":"/a.ts","offset":1e21,"limit":0.1}`, "/a.ts:1e+21-0.1", state.ClassRead},
		{"Read", `{"file_path":"/a.ts","offset":-0,"limit":1e-7}`, "/a.ts:0-1e-7", state.ClassRead},
		{"Read", `{"file_path":"/a.ts","offset":"10","limit":true}`, "/a.ts:-", state.ClassRead},
		{"Read", `{"notebook_path":"/n.ipynb"}`, "/n.ipynb:-", state.ClassRead},
		{"Edit", `{"file_path":"/x.ts","old_string":"a"}`, "/x.ts", state.ClassOther},
		{"Write", `{"file_path":"/x.ts","content":"a"}`, "/x.ts", state.ClassOther},
		{"NotebookEdit", `{"notebook_path":"/x.ipynb"}`, "/x.ipynb", state.ClassOther},
		{"MultiEdit", `{"file_path":"/m.ts","edits":[]}`, "/m.ts", state.ClassOther}, // A difference from ContextSaver (protocol.md): a file tool
		{"Grep", `{"pattern":"foo|bar","path":"src"}`, "Grep:foo|bar:src", state.ClassSearch},
		{"Glob", `{"pattern":"*.ts"}`, "Glob:*.ts:", state.ClassSearch},
		{"Agent", `{"subagent_type":"Explore","prompt":"x"}`, "agent:Explore", state.ClassOther},
		{"Agent", `{}`, "agent:general", state.ClassOther},
		{"WebFetch", `{"url":"https://a.b/?q=<x>&y=1","prompt":"say \"hi\"\n"}`, `WebFetch:{"prompt":"say \"hi\"\n","url":"https://a.b/?q=<x>&y=1"}`, state.ClassOther},
		{"Task", `{"tool":"x","tool_use_id":"t","agentId":"a","consent":true,"z":{"tool":1,"consent":3}}`, `Task:{"z":{"consent":3,"tool":1}}`, state.ClassOther},
		{"Task", `{"b":1,"a":2,"10":5,"9":6}`, `Task:{"10":5,"9":6,"a":2,"b":1}`, state.ClassOther},
		{"Task", `{"n":[1.0,1e21,1e-7,-0,0.1,100,2.5e-5,123e-2,1e400]}`, `Task:{"n":[1,1e+21,1e-7,0,0.1,100,0.000025,1.23,null]}`, state.ClassOther},
		{"Task", `{"s":"\u0000\u001f\u007f\u2028\b\f\\/é😀"}`, `Task:{"s":"\u0000\u001f` + "\u007f\u2028" + `\b\f\\/é😀"}`, state.ClassOther},
		{"Task", `{"😀":1,"\uffff":2,"é":3}`, `Task:{"é":3,"😀":1,"` + "\uffff" + `":2}`, state.ClassOther},
		{"Task", `{}`, "Task:{}", state.ClassOther},
	}
	for _, c := range cases {
		input, err := ObjectFromJSON([]byte(c.input))
		if err != nil {
			t.Fatal(err)
		}
		key, cls := Normalize(c.tool, input)
		if key != c.key || cls != c.cls {
			t.Errorf("Normalize(%s, %s) = %q, %s; want %q, %s", c.tool, c.input, key, cls, c.key, c.cls)
		}
	}
	// A caller's own Go values print as JSON.stringify would print them too.
	key, _ := Normalize("Task", map[string]any{"n": 3, "f": 0.5, "l": []string{"a"}, "m": map[string]int{"b": 1, "a": 2}})
	if want := `Task:{"f":0.5,"l":["a"],"m":{"a":2,"b":1},"n":3}`; key != want {
		t.Errorf("Go values: %q; want %q", key, want)
	}
}

// A key is at most KeyMax UTF-16 units, cut on a whole character (a difference from ContextSaver: never half a pair).
func TestLedgerKeyCut(t *testing.T) {
	for _, command := range []string{"cat " + strings.Repeat("😀", 150), "grep " + strings.Repeat("é", 300), "npm test " + strings.Repeat("x", 400)} {
		key, _ := lgBashKey(command)
		if jstext.Len16(key) > state.KeyMax || !utf8.ValidString(key) {
			t.Errorf("%q…: key of %d units, valid %v", command[:12], jstext.Len16(key), utf8.ValidString(key))
		}
		if !strings.HasPrefix(command[:8], key[strings.Index(key, ":")+1:][:8]) {
			t.Errorf("key %q… does not start the command", key[:12])
		}
	}
	key, _ := lgBashKey("cat " + strings.Repeat("😀", 150))
	if want := "read:cat " + strings.Repeat("😀", 95); key != want { // 9 + 190 units; the 96th would make 201
		t.Errorf("emoji key = %d units; want %d", jstext.Len16(key), jstext.Len16(want))
	}
	key, _ = lgBashKey("ls \xff\xfe | x")
	if !utf8.ValidString(key) {
		t.Errorf("invalid UTF-8 in a key: %q", key)
	}
}

func TestLedgerRowOfOracle(t *testing.T) {
	var cases []struct {
		Event  json.RawMessage `json:"event"`
		Result json.RawMessage `json:"result"`
		Ms     int64           `json:"ms"`
		Turn   int             `json:"turn"`
		Want   map[string]any  `json:"want"`
		Fix    string          `json:"fix"`
	}
	statetest.ReadOracle(t, "oracle_rows.json", &cases)
	for _, c := range cases {
		e, err := ToolEventFromJSON(c.Event)
		if err != nil {
			t.Fatal(err)
		}
		var res ToolResult
		if err := json.Unmarshal(c.Result, &res); err != nil {
			t.Fatal(err)
		}
		got := lgGeneric(t, RowOf(e, res, c.Ms, c.Turn)).(map[string]any)
		if got["seq"] != 0.0 {
			t.Errorf("RowOf set seq %v", got["seq"])
		}
		delete(got, "seq")
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("RowOf(%s, %s)\n got  %v\n want %v (%s)", c.Event, c.Result, got, c.Want, c.Fix)
		}
	}
}

func lgRow(t *testing.T, event, result string) state.Row {
	t.Helper()
	e, err := ToolEventFromJSON([]byte(event))
	if err != nil {
		t.Fatal(err)
	}
	var res ToolResult
	if err := json.Unmarshal([]byte(result), &res); err != nil {
		t.Fatal(err)
	}
	return RowOf(e, res, 5, 2)
}

func TestLedgerRowOf(t *testing.T) {
	// The documented rules of a row, one by one.
	r := lgRow(t, `{"tool":"Bash","tool_use_id":"t1","command":"npm test","agentId":"ag"}`, `{"result":{},"text":"ok"}`)
	if r.ID != "t1" || r.Agent != "ag" || r.Ms != 5 || r.Turn != 2 || r.Seq != 0 || r.Chars != 2 || r.Head != "ok" || r.Key != "test:npm test" {
		t.Errorf("basic row: %+v", r)
	}
	if r := lgRow(t, `{"tool":"Bash","tool_use_id":"t1","command":"x"}`, `{"text":"x"}`); r.Agent != state.MainAgent {
		t.Errorf("no agentId: agent %q; want main", r.Agent)
	}
	// Head: 80 units, tabs and newlines read as spaces, control characters dropped, never half a pair.
	cases := []struct{ text, head string }{
		{"a\tb\nc\rd\x00e\x7ff", "a b cdef"},
		{strings.Repeat("x", 100), strings.Repeat("x", 80)},
		{"a" + strings.Repeat("😀", 40), "a" + strings.Repeat("😀", 39)},
		{strings.Repeat("é", 90), strings.Repeat("é", 80)},
	}
	for _, c := range cases {
		text := c.text
		r := RowOf(ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "h"}), ToolResult{Text: &text}, 0, 1)
		if r.Head != c.head || r.Chars != int64(jstext.Len16(text)) {
			t.Errorf("head of %q = %q (%d chars); want %q", c.text, r.Head, r.Chars, c.head)
		}
	}
	// bg describes a call that ran: a denied or errored Bash started no background task.
	bg := `{"tool":"Bash","tool_use_id":"b","command":"sleep 9","run_in_background":true}`
	for result, flags := range map[string]string{
		`{"result":{},"text":""}`:                   "bg",
		`{"result":{},"text":"","isError":true}`:    "err",
		`{"result":{},"text":"","deny":"no"}`:       "denied",
		`{"result":{},"text":"","deny":null}`:       "bg", // A difference from ContextSaver (protocol.md): deny null is no denial
		`{"result":{},"text":"","deny":{"why":1}}`:  "denied",
		`{"result":{},"text":"","isError":"true"}`:  "bg",
		`{"result":{"timedOutAfterMs":5},"text":5}`: "bg timeout", // A difference from ContextSaver (protocol.md): a non-string text is absent
	} {
		if got := strings.Join(lgRow(t, bg, result).Flags, " "); got != flags {
			t.Errorf("flags for %s = %q; want %q", result, got, flags)
		}
	}
	// Lines and paths of edits; a staged edit changed nothing yet; MultiEdit is an edit (protocol.md, "Differences from ContextSaver").
	r = lgRow(t, `{"tool":"MultiEdit","tool_use_id":"m","file_path":"/m.ts"}`, `{"result":{"structuredPatch":[{"lines":["+a","-b","+c"]}]},"text":"ok"}`)
	if r.Key != "/m.ts" || r.Lines == nil || *r.Lines != (state.Lines{Add: 2, Del: 1}) || !reflect.DeepEqual(r.Paths, []string{"/m.ts"}) {
		t.Errorf("MultiEdit row: key %q lines %v paths %v", r.Key, r.Lines, r.Paths)
	}
	r = lgRow(t, `{"tool":"Edit","tool_use_id":"e","file_path":"/a.ts"}`, `{"result":{"staged":true,"gitDiff":{"additions":3,"deletions":1}},"text":"ok"}`)
	if *r.Lines != (state.Lines{Add: 3, Del: 1}) || len(r.Paths) != 0 {
		t.Errorf("staged edit: lines %v paths %v", r.Lines, r.Paths)
	}
	r = lgRow(t, `{"tool":"Edit","tool_use_id":"e","file_path":"/a.ts"}`, `{"result":{"gitDiff":{"additions":3,"deletions":1}},"text":"ok","deny":"no"}`)
	if r.Lines != nil || r.Paths == nil || len(r.Paths) != 0 {
		t.Errorf("denied edit: lines %v paths %#v", r.Lines, r.Paths)
	}
	for content, lines := range map[string]int64{"": 0, "\n": 1, "a": 1, "a\nb\n": 2, "a\n\n": 2} {
		r := RowOf(ToolEventOf(map[string]any{"tool": "Write", "tool_use_id": "w", "file_path": "/w", "content": content}), ToolResult{Result: map[string]any{}}, 0, 1)
		if r.Lines == nil || r.Lines.Add != lines || r.Lines.Del != 0 {
			t.Errorf("Write of %q: lines %v; want %d", content, r.Lines, lines)
		}
	}
	// Spawn facts for an Agent row.
	r = lgRow(t, `{"tool":"Agent","tool_use_id":"a","subagent_type":"Explore","model":"haiku","prompt":"find 😀"}`,
		`{"result":{"resolvedModel":"claude-haiku","status":"completed","totalTokens":12345,"toolStats":{"editFileCount":2}},"text":"done"}`)
	want := state.Launch{Type: "Explore", Requested: new("haiku"), Resolved: new("claude-haiku"), Status: new("completed"), Tokens: new(12345.0), Edits: new(2.0), PromptChars: 7}
	if r.Launch == nil || !reflect.DeepEqual(*r.Launch, want) {
		t.Errorf("spawn = %+v; want %+v", r.Launch, want)
	}
}

func TestLedgerToolResultJSON(t *testing.T) {
	cases := []struct {
		raw     string
		text    *string
		isError bool
		deny    *string
	}{
		{`{"text":"a"}`, new("a"), false, nil},
		{`{"text":5}`, nil, false, nil},
		{`{"text":null}`, nil, false, nil},
		{`{"isError":true}`, nil, true, nil},
		{`{"isError":"true"}`, nil, false, nil},
		{`{"isError":1}`, nil, false, nil},
		{`{"deny":null}`, nil, false, nil},
		{`{"deny":""}`, nil, false, new("")},
		{`{"deny":"no"}`, nil, false, new("no")},
		{`{"deny":{"reason": "x"}}`, nil, false, new(`{"reason":"x"}`)},
		{`{"deny":false}`, nil, false, new("false")},
		{`null`, nil, false, nil},
	}
	for _, c := range cases {
		var r ToolResult
		if err := json.Unmarshal([]byte(c.raw), &r); err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if !reflect.DeepEqual(r.Text, c.text) || r.IsError != c.isError || !reflect.DeepEqual(r.Deny, c.deny) {
			t.Errorf("%s → text %v isError %v deny %v", c.raw, r.Text, r.IsError, r.Deny)
		}
	}
	var r ToolResult
	if err := json.Unmarshal([]byte(`{"result":{"n":1.50}}`), &r); err != nil {
		t.Fatal(err)
	}
	if n := anyRecord(r.Result)["n"]; n != json.Number("1.50") {
		t.Errorf("result numbers: %#v; want json.Number", n)
	}
	if err := json.Unmarshal([]byte(`[1]`), &r); err == nil {
		t.Error("an array decoded as a tool result")
	}
	if _, err := ToolEventFromJSON([]byte(`[1]`)); err == nil {
		t.Error("an array decoded as a tool event")
	}
	if _, err := ToolEventFromJSON([]byte(`{"tool":"x"} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

var lgClasses = []state.CommandClass{state.ClassTest, state.ClassLint, state.ClassFormat, state.ClassTypecheck, state.ClassBuild, state.ClassInstall, state.ClassGit, state.ClassRead, state.ClassSearch, state.ClassOther}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"npm test", "cd web && npm test 2>&1 | tail -5", "cat > f <<'EOF'\nx\nEOF", `grep -E "a|b" f`, "git commit -m \"$(cat <<'EOF'\nm\nEOF\n)\"", "echo $((1<<2)) `ls`", "# it's\nls", "😀 \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		key, cls := lgBashKey(command)
		if jstext.Len16(key) > state.KeyMax || !utf8.ValidString(key) {
			t.Fatalf("key %q: %d units, valid %v", key, jstext.Len16(key), utf8.ValidString(key))
		}
		if !slices.Contains(lgClasses, cls) || !strings.HasPrefix(key, string(cls)+":") {
			t.Fatalf("class %q for key %q", cls, key)
		}
		// The same text as a result: its head is at most 80 units of whole, printable characters.
		if head := rowHead(command); jstext.Len16(head) > rowHeadMax || !utf8.ValidString(head) || strings.ContainsAny(head, "\t\n\x00\x7f") {
			t.Fatalf("head %q of %q", head, command)
		}
	})
}

func FuzzClassOf(f *testing.F) {
	for _, s := range []string{"npm run lint", "FOO=1 timeout 3 time pytest", "a && b || c; d", "cat x | tee y", "'unclosed", "\\", "$(", "<<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		cls := ClassOf(command)
		if !slices.Contains(lgClasses, cls) {
			t.Fatalf("class %q", cls)
		}
		if _, k := lgBashKey(command); k != cls {
			t.Fatalf("ClassOf %s, Normalize %s", cls, k)
		}
	})
}

func BenchmarkRowOf(b *testing.B) {
	bashText := strings.Repeat("PASS src/app.test.ts\n", 40)
	bash := ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "toolu_01", "command": "cd web && NODE_ENV=test npm run test -- --coverage 2>&1 | tail -40"})
	bashResult := ToolResult{Result: map[string]any{"stdout": bashText}, Text: &bashText}
	editText := "The file src/app.ts has been updated."
	edit := ToolEventOf(map[string]any{"tool": "Edit", "tool_use_id": "toolu_02", "file_path": "/w/src/app.ts", "old_string": "a", "new_string": "b"})
	editResult := ToolResult{Result: map[string]any{"filePath": "/w/src/app.ts", "gitDiff": map[string]any{"additions": json.Number("3"), "deletions": json.Number("1")}}, Text: &editText}
	b.Run("Bash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RowOf(bash, bashResult, 1200, 3)
		}
	})
	b.Run("Edit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RowOf(edit, editResult, 40, 3)
		}
	})
}

// TestPrintableEnd: the eight-at-a-time scan stops where a byte loop does, for every byte value at every
// offset of a word, behind printable bytes and behind the edge values 0x1f, 0x7e, 0x7f and 0xff.
func TestPrintableEnd(t *testing.T) {
	slow := func(p []byte, i, end int) int {
		for i < end && p[i] >= 0x20 && p[i] < 0x7f {
			i++
		}
		return i
	}
	for _, fill := range []byte{'x', ' ', '~', 0x1f, 0x7f, 0xff, 0x80, 0x00} {
		for at := range 20 {
			for b := range 256 {
				p := bytes.Repeat([]byte("abc~ xyz"), 3)
				p[at] = byte(b)
				if at+1 < len(p) {
					p[at+1] = fill
				}
				for _, start := range []int{0, 1, 7} {
					for _, end := range []int{len(p), 9, 16, 17} {
						if start > end {
							continue
						}
						if got, want := printableEnd(p, start, end), slow(p, start, end); got != want {
							t.Fatalf("printableEnd(%q, %d, %d) = %d, want %d", p, start, end, got, want)
						}
					}
				}
			}
		}
	}
}
