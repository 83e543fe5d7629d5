package intake

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// RowOf: one finished tool call becomes one ledger row, its key and class computed from the call's
// arguments alone, every result field read defensively (a field of the wrong type is absent).

// rowHeadMax is the UTF-16 units of result text quoted as evidence (Row.Head).
const rowHeadMax = 80

// Normalize computes the ledger key and command class of a call from its arguments alone.
//
//   - Bash: the class is what the command does, seen through `cd x &&`, `VAR=v`, `timeout 30` and `time`,
//     runners (`npm run`, `bun x`, `python -m`, `npx`, …) and their script names, and the basename of the
//     head (`venv/bin/python -m pytest` is test); a chain (`&&`, `||`, `;`) takes its first classified
//     segment. The key is that segment as typed, minus the noise before it and the filtering after it
//     (from the first pipe or redirect: `| tail`, `2>&1`). An `other` command's key is the whole command.
//     Quotes, escapes, substitutions and heredocs are read as the shell reads them (see shell.go).
//   - Read: `path:offset-limit`; the other file tools (Edit, Write, NotebookEdit, MultiEdit): the path.
//   - Grep and Glob: `Tool:pattern:path`; Agent: `agent:<subagent_type or general>`.
//   - Anything else: `Tool:` and its arguments as sorted JSON, the event's own fields left out.
//
// A key is at most KeyMax UTF-16 units, cut on a whole character, and always valid UTF-8.
func Normalize(tool string, input map[string]any) (string, state.CommandClass) {
	key, cls, _ := normalize(tool, ToolEventOf(input))
	return key, cls
}

// normalize is Normalize, and whether the key is a string of its own (built here, not cut), which a
// row can keep as it is: any other key may be a slice of a long command or path, and a row that kept it
// would keep all of that alive.
func normalize(tool string, input ToolEvent) (key string, cls state.CommandClass, owned bool) {
	key, cls = normalizeKey(tool, input)
	// Every key but a file tool's path is put together here.
	owned = !state.IsFileTool(tool) || tool == "Read"
	if cut := jstext.Cut16(key, state.KeyMax); len(cut) < len(key) {
		key, owned = cut, false
	}
	if !utf8.ValidString(key) {
		key, owned = strings.ToValidUTF8(key, "\uFFFD"), true
	}
	return key, cls, owned
}

func normalizeKey(tool string, input ToolEvent) (string, state.CommandClass) {
	switch {
	case tool == "Bash":
		cmd := readShell(input.Text("command"))
		cls, body := cmd.verdict()
		return string(cls) + ":" + body, cls
	case state.IsFileTool(tool):
		path := eventPath(input)
		if tool == "Read" {
			return path + ":" + keyNumber(input.Get("offset")) + "-" + keyNumber(input.Get("limit")), state.ClassRead
		}
		return path, state.ClassOther
	case tool == "Grep" || tool == "Glob":
		return tool + ":" + input.Text("pattern") + ":" + input.Text("path"), state.ClassSearch
	case tool == "Agent":
		return "agent:" + input.TextOr("subagent_type", "general"), state.ClassOther
	case tool == applyPatchTool:
		if key, ok := patchKey(input); ok {
			return key, state.ClassOther
		}
	}
	return tool + ":" + stableJSON(input.Map(), eventReservedKeys), state.ClassOther
}

// ClassOf classifies a shell command by what it does (see Normalize).
func ClassOf(command string) state.CommandClass {
	cmd := readShell(command)
	cls, _ := cmd.verdict()
	return cls
}

// RowOf builds the ledger row of a finished tool call; Seq is left 0 for the reducer to assign.
func RowOf(e ToolEvent, result ToolResult, ms int64, turn int) state.Row {
	return rowOf(e, result, ms, turn, nil)
}

// rowOf is RowOf, a Bash call's key taken from keys when there are keys.
func rowOf(e ToolEvent, result ToolResult, ms int64, turn int, keys *Keys) state.Row {
	res := anyRecord(result.Result)
	tool := e.Tool()
	sk, ok := keys.bash(tool, e)
	if !ok {
		// The row outlives the command or path the key may be a slice of: its fold key is a copy, and
		// the key its tail.
		key, cls, _ := normalize(tool, e)
		fold := state.FoldKey(tool, key)
		sk = shellKey{key: fold[len(tool)+1:], cls: cls, fold: fold}
	}
	key, cls := sk.key, sk.cls
	chars, head := result.rowText()
	row := state.Row{
		ID:     e.Text("tool_use_id"),
		Tool:   tool,
		Key:    key,
		Cls:    cls,
		Agent:  e.TextOr("agentId", state.MainAgent),
		Turn:   turn,
		Ms:     ms,
		Chars:  chars,
		Head:   head,
		Flags:  rowFlags(e, tool, result, res),
		Paths:  []string{},
		Launch: rowLaunch(e, tool, res),
	}
	row.SetFoldKey(sk.fold)
	switch {
	case !callAnswered(result):
	case tool == applyPatchTool:
		row.Paths, row.Lines = patchRow(e) // the patch read once for both
	default:
		row.Lines = rowLines(e, tool, res)
		row.Paths = rowPaths(e, tool, res)
	}
	return row
}

// keyNumber is a finite number as JavaScript prints it, or "" for anything else.
func keyNumber(v any) string {
	if f, ok := jstext.NumberOf(v); ok {
		return jstext.JSNumber(f)
	}
	return ""
}

func eventPath(args ToolEvent) string {
	if s, ok := args.String("file_path"); ok {
		return s
	}
	return args.Text("notebook_path")
}

// rowHead is the first rowHeadMax UTF-16 units of printable text, tabs and newlines read as spaces; it stops
// before a character that would not fit whole, so it never holds half a surrogate pair.
func rowHead(text string) string {
	// Fast path: printable ASCII needs no copy.
	i := 0
	for i < len(text) && i < rowHeadMax && text[i] >= 0x20 && text[i] < 0x7f {
		i++
	}
	if i == rowHeadMax || i == len(text) {
		// A copy: a slice would keep the tool's whole output alive for as long as the row lives.
		return strings.Clone(text[:i])
	}
	var h headBuilder
	h.n = copy(h.buf[:], text[:i])
	h.units = i
	for _, r := range text[i:] { // an invalid byte reads as U+FFFD, one unit
		if !h.add(r) {
			break
		}
	}
	return h.String()
}

// headBuilder builds a rowHead one character at a time, for a text that is read but never held whole.
type headBuilder struct {
	buf   [3 * rowHeadMax]byte // a character of one UTF-16 unit is at most 3 bytes, of two 4
	n     int
	units int
	full  bool // later characters change nothing
}

// add takes the text's next character; false once the head is full.
func (h *headBuilder) add(r rune) bool {
	w := 1
	switch {
	case r == '\t' || r == '\n':
		r = ' '
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x10000:
		w = 2
	}
	if h.units+w > rowHeadMax {
		h.full = true
		return false
	}
	h.units += w
	if r < utf8.RuneSelf {
		h.buf[h.n] = byte(r)
		h.n++
	} else {
		h.n += utf8.EncodeRune(h.buf[h.n:], r)
	}
	h.full = h.units == rowHeadMax
	return !h.full
}

// addBytes takes the characters of p (valid UTF-8) until the head is full: runs of printable ASCII
// copied as they are, the rest one character at a time.
func (h *headBuilder) addBytes(p []byte) {
	for i := 0; i < len(p) && !h.full; {
		j := printableEnd(p, i, min(len(p), i+rowHeadMax-h.units))
		if j > i {
			h.n += copy(h.buf[h.n:], p[i:j])
			h.units += j - i
			h.full = h.units == rowHeadMax
			i = j
			continue
		}
		if c := p[i]; c < utf8.RuneSelf {
			h.add(rune(c))
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		h.add(r)
		i += size
	}
}

// printableEnd is the index of the first byte of p[i:end] that is not printable ASCII (0x20–0x7e), or end.
// It tests eight bytes at a time: every call's head runs through it. A borrow (a byte under 0x20) or a
// carry (a byte of 0xff) only reaches the bytes above the one that caused it, which is flagged itself, so
// the lowest byte the mask flags is always the first one not printable.
func printableEnd(p []byte, i, end int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= end; i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		if m := ((x-ones*0x20)&^x | (x + ones) | x) & high; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < end && p[i] >= 0x20 && p[i] < 0x7f {
		i++
	}
	return i
}

// String is the head built so far.
func (h *headBuilder) String() string { return string(h.buf[:h.n]) }

// callAnswered: the call ran and did not fail. A denied or errored call has no lines, no paths and no bg.
func callAnswered(r ToolResult) bool { return r.Deny == nil && !r.IsError }

// rowFlags: err denied dedup trunc bg timeout persist=N ask recommended, in that order.
func rowFlags(e ToolEvent, tool string, result ToolResult, res map[string]any) []string {
	flags := []string{}
	add := func(yes bool, flag string) {
		if yes {
			flags = append(flags, flag)
		}
	}
	bash, read, ask := tool == "Bash", tool == "Read", tool == "AskUserQuestion"
	// `bg` describes a call that ran: a denied or errored Bash started no background task.
	background := callAnswered(result) && (e.Get("run_in_background") == true || anyStringPtr(res["backgroundTaskId"]) != nil)
	_, timedOut := jstext.NumberOf(res["timedOutAfterMs"])
	add(result.IsError, "err")
	add(result.Deny != nil, "denied")
	add(read && res["type"] == "file_unchanged", "dedup")
	add(read && anyRecord(res["file"])["truncatedByTokenCap"] == true, "trunc")
	add(bash && background, "bg")
	add(bash && timedOut, "timeout")
	if persisted, ok := jstext.NumberOf(res["persistedOutputSize"]); ok && bash {
		flags = append(flags, "persist="+jstext.JSNumber(persisted))
	}
	// An ask's ms is the wait for the person; `recommended` says the model marked an option for them.
	add(ask, "ask")
	add(ask && holdsText(e.Get("questions"), "(Recommended)"), "recommended")
	return flags
}

// holdsText reports whether any string in v (keys included) contains sub: ContextSaver searched
// JSON.stringify(v), and escaping never makes or breaks a match for a text with no quote, backslash
// or control character in it.
func holdsText(v any, sub string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, sub)
	case []any:
		for _, e := range x {
			if holdsText(e, sub) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, sub) || holdsText(e, sub) {
				return true
			}
		}
	}
	return false
}

// isLineEditTool: Edit and MultiEdit count lines the same way (MultiEdit was left out by ContextSaver; protocol.md, "Differences from ContextSaver").
func isLineEditTool(tool string) bool { return tool == "Edit" || tool == "MultiEdit" }

// rowLines: an edit's lines from gitDiff, else from its structuredPatch; a write's from its content.
func rowLines(e ToolEvent, tool string, res map[string]any) *state.Lines {
	switch {
	case isLineEditTool(tool):
		diff := anyRecord(res["gitDiff"])
		add, okAdd := jstext.NumberOf(diff["additions"])
		del, okDel := jstext.NumberOf(diff["deletions"])
		if okAdd && okDel {
			return &state.Lines{Add: int64(add), Del: int64(del)}
		}
		return patchLines(res["structuredPatch"])
	case tool == "Write":
		content, ok := res["content"].(string)
		if !ok {
			content = e.Text("content")
		}
		return &state.Lines{Add: writtenLines(content)}
	}
	return nil
}

// patchLines counts the + and - lines of a structured patch's hunks.
func patchLines(patch any) *state.Lines {
	l := &state.Lines{}
	hunks, _ := patch.([]any)
	for _, h := range hunks {
		lines, _ := anyRecord(h)["lines"].([]any)
		for _, line := range lines {
			s, _ := line.(string)
			switch {
			case strings.HasPrefix(s, "+"):
				l.Add++
			case strings.HasPrefix(s, "-"):
				l.Del++
			}
		}
	}
	return l
}

// writtenLines is the lines of a written file: a final newline closes the last line, it opens none.
func writtenLines(content string) int64 {
	if content == "" {
		return 0
	}
	return int64(strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1)
}

// rowPaths: the file an edit changed (a staged edit changed nothing yet), or the files a Bash call changed.
func rowPaths(e ToolEvent, tool string, res map[string]any) []string {
	switch tool {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		path, ok := res["filePath"].(string)
		if !ok {
			path = eventPath(e)
			ok = path != ""
		}
		if ok && res["staged"] != true {
			return []string{path}
		}
	case "Bash":
		changed, _ := anyRecord(res["bashEditDiff"])["changedFiles"].([]any)
		out := []string{}
		for _, f := range changed {
			if s, ok := f.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return []string{}
}

// rowLaunch is what an Agent row knows of the loop it launched; nil for every other tool.
func rowLaunch(e ToolEvent, tool string, res map[string]any) *state.Launch {
	if tool != "Agent" {
		return nil
	}
	return &state.Launch{
		Type:        e.TextOr("subagent_type", "general"),
		Requested:   anyStringPtr(e.Get("model")),
		Resolved:    anyStringPtr(res["resolvedModel"]),
		Status:      anyStringPtr(res["status"]),
		Tokens:      anyNumberPtr(res["totalTokens"]),
		Edits:       anyNumberPtr(anyRecord(res["toolStats"])["editFileCount"]),
		PromptChars: jstext.Len16(e.Text("prompt")),
	}
}

// ---- ContextSaver's command tables and noise rules

// runners are script runners: what follows them is the command that matters (longest first).
var runners = []string{"npm run", "bun run", "bun x", "pnpm run", "yarn run", "python3 -m", "python -m", "npx", "bunx", "pnpm", "yarn"}

// runnerScripts are script names seen after a runner (`bun run lint`) that no binary in the table covers.
// A Go map has no inherited names: `npm run constructor` is other (protocol.md, "Differences from ContextSaver").
var runnerScripts = map[string]state.CommandClass{"test": state.ClassTest, "lint": state.ClassLint, "format": state.ClassFormat, "typecheck": state.ClassTypecheck, "build": state.ClassBuild}

type commandHead struct {
	head string
	cls  state.CommandClass
}

// commandHeads are matched on a token boundary, first match wins; two-token heads never shadow one another.
var commandHeads = []commandHead{
	{"npm test", state.ClassTest}, {"bun test", state.ClassTest}, {"go test", state.ClassTest}, {"cargo test", state.ClassTest},
	{"jest", state.ClassTest}, {"vitest", state.ClassTest}, {"pytest", state.ClassTest}, {"mocha", state.ClassTest},
	{"biome lint", state.ClassLint}, {"eslint", state.ClassLint}, {"ruff", state.ClassLint}, {"flake8", state.ClassLint}, {"golangci-lint", state.ClassLint},
	{"biome format", state.ClassFormat}, {"prettier", state.ClassFormat}, {"black", state.ClassFormat}, {"gofmt", state.ClassFormat}, {"rustfmt", state.ClassFormat},
	{"tsc", state.ClassTypecheck}, {"mypy", state.ClassTypecheck}, {"pyright", state.ClassTypecheck},
	{"make build", state.ClassBuild}, {"cargo build", state.ClassBuild}, {"go build", state.ClassBuild}, {"docker build", state.ClassBuild}, {"vite", state.ClassBuild}, {"webpack", state.ClassBuild},
	{"npm install", state.ClassInstall}, {"npm i", state.ClassInstall}, {"bun install", state.ClassInstall}, {"bun add", state.ClassInstall},
	{"pnpm install", state.ClassInstall}, {"pnpm add", state.ClassInstall}, {"yarn install", state.ClassInstall}, {"yarn add", state.ClassInstall},
	{"pip install", state.ClassInstall}, {"uv pip", state.ClassInstall}, {"cargo fetch", state.ClassInstall}, {"apt-get install", state.ClassInstall}, {"brew install", state.ClassInstall},
	{"git", state.ClassGit}, {"gh", state.ClassGit},
	{"cat", state.ClassRead}, {"head", state.ClassRead}, {"tail", state.ClassRead}, {"less", state.ClassRead}, {"ls", state.ClassRead}, {"tree", state.ClassRead}, {"sed", state.ClassRead},
	{"grep", state.ClassSearch}, {"rg", state.ClassSearch}, {"ag", state.ClassSearch}, {"find", state.ClassSearch}, {"fd", state.ClassSearch}, {"ast-grep", state.ClassSearch},
}

// hasHead: s is head, or head followed by a space.
func hasHead(s, head string) bool {
	return s == head || (len(s) > len(head) && s[len(head)] == ' ' && s[:len(head)] == head)
}

// headsByByte is commandHeads grouped by first byte, in table order, so a lookup reads only a few.
var headsByByte = func() (t [256][]commandHead) {
	for _, h := range commandHeads {
		t[h.head[0]] = append(t[h.head[0]], h)
	}
	return t
}()

func tableClass(command string) (state.CommandClass, bool) {
	if command == "" {
		return "", false
	}
	for _, h := range headsByByte[command[0]] {
		if hasHead(command, h.head) {
			return h.cls, true
		}
	}
	return "", false
}

// headToken is the text before the first space.
func headToken(command string) string {
	if i := strings.IndexByte(command, ' '); i >= 0 {
		return command[:i]
	}
	return command
}

// baseHead reads the head by its basename: `venv/bin/python -m pytest` is `python -m pytest` to the table.
func baseHead(command string) string {
	head := headToken(command)
	slash := strings.LastIndexByte(head, '/')
	if slash < 0 {
		return command
	}
	return command[slash+1:]
}

// segmentClass classifies one segment of a chain, noise already stripped.
func segmentClass(bare string) state.CommandClass {
	b := baseHead(bare)
	if cls, ok := tableClass(b); ok {
		return cls
	}
	for _, r := range runners {
		if !hasHead(b, r) {
			continue
		}
		script := strings.TrimSpace(b[len(r):])
		if cls, ok := tableClass(script); ok {
			return cls
		}
		if cls, ok := runnerScripts[headToken(script)]; ok {
			return cls
		}
		return state.ClassOther
	}
	return state.ClassOther
}

// noiseLen is the length of the noise a segment opens with: `cd <dir> &&`, `VAR=value`, `timeout <n>`
// or `time`, each with the spaces after it (ContextSaver's noise prefixes, on collapsed text where \s is a space).
func noiseLen(s string) int {
	if n := cdNoise(s); n > 0 {
		return n
	}
	if n := assignNoise(s); n > 0 {
		return n
	}
	if rest, ok := strings.CutPrefix(s, "timeout "); ok {
		i := len(s) - len(rest)
		j := i
		for j < len(s) && asciiDigit(s[j]) {
			j++
		}
		if j > i {
			if j < len(s) && strings.IndexByte("smhd", s[j]) >= 0 && j+1 < len(s) && s[j+1] == ' ' {
				j++
			}
			if j < len(s) && s[j] == ' ' {
				return spacesAfter(s, j)
			}
		}
	}
	if strings.HasPrefix(s, "time ") {
		return spacesAfter(s, 4)
	}
	return 0
}

// spacesAfter is the index past the run of spaces starting at s[i].
func spacesAfter(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// cdNoise matches `cd\s+[^\s&|;]+\s*&&\s*`.
func cdNoise(s string) int {
	if !strings.HasPrefix(s, "cd ") {
		return 0
	}
	i := spacesAfter(s, 3)
	j := i
	for j < len(s) && strings.IndexByte(" &|;", s[j]) < 0 {
		j++
	}
	if j == i {
		return 0
	}
	j = spacesAfter(s, j)
	if !strings.HasPrefix(s[j:], "&&") {
		return 0
	}
	return spacesAfter(s, j+2)
}

// assignNoise matches `[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+`, alternatives in order.
func assignNoise(s string) int {
	if s == "" || !(s[0] == '_' || asciiLetter(s[0])) {
		return 0
	}
	i := 1
	for i < len(s) && (s[i] == '_' || asciiLetter(s[i]) || asciiDigit(s[i])) {
		i++
	}
	if i >= len(s) || s[i] != '=' {
		return 0
	}
	i++
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		if end := strings.IndexByte(s[i+1:], s[i]); end >= 0 {
			j := i + 1 + end + 1
			if j < len(s) && s[j] == ' ' {
				return spacesAfter(s, j)
			}
		}
	}
	j := i
	for j < len(s) && s[j] != ' ' {
		j++
	}
	if j < len(s) {
		return spacesAfter(s, j)
	}
	return 0
}

func asciiLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
