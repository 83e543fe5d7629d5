package rules

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/saverd/saverd/internal/jsonobj"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// Rules: the lasting artifacts that make a session's decisions permanent — a CLAUDE.md bullet, a
// skill, an agent brief, a settings permission — rendered here; the daemon writes them.

// BulletOf renders one single-line CLAUDE.md bullet; appending under an existing heading adds only this.
// Its text is cleaned and capped (Clean, BulletMax).
func BulletOf(body string) string {
	b := jstext.CollapseWs(Clean(body))
	if strings.HasPrefix(b, "- ") || strings.HasPrefix(b, "* ") {
		b = b[2:]
	}
	return "- " + capped(b, BulletMax) + "\n"
}

// BulletOnly is the bullet alone from a claude-md artifact's content (all of it when it has none).
func BulletOnly(content string) string {
	return content[strings.Index(content, "\n- ")+1:]
}

// AppendedTo is a file's text with an artifact's content added, never glued to a line. A brand-new file
// opens on the heading itself; a file without the `## ContextSaver` heading gets the whole section,
// after a blank line. A file with the heading gets the bullet alone at the END OF THAT SECTION: after
// its last non-blank line, before the next heading of level one or two (ContextSaver appended it at the
// end of the file, under whatever heading came last: protocol.md, "Differences from ContextSaver"). The heading is a line of its own
// (trailing whitespace ignored); headings inside fenced code blocks do not count.
func AppendedTo(existing *string, content string) string {
	base := state.Str(existing)
	glue := ""
	if base != "" && !strings.HasSuffix(base, "\n") {
		glue = "\n"
	}
	at, found := claudeSectionEnd(base)
	switch {
	case found && at < 0:
		return base + glue + BulletOnly(content)
	case found:
		bullet := BulletOnly(content)
		if strings.HasSuffix(base[:at], "\r\n") { // a CRLF file stays CRLF
			bullet = strings.ReplaceAll(bullet, "\n", "\r\n")
		}
		return base[:at] + bullet + base[at:]
	case base == "":
		return strings.TrimLeft(content, "\n")
	}
	return base + glue + content
}

// claudeSectionEnd finds the ContextSaver section of a markdown text: found is false when there is none; at
// is where a bullet goes (just past its last non-blank line), or -1 when the section runs to the end.
func claudeSectionEnd(text string) (at int, found bool) {
	in, fenced := false, false
	lastFilled := -1
	for pos := 0; pos < len(text); {
		end := len(text)
		if nl := strings.IndexByte(text[pos:], '\n'); nl >= 0 {
			end = pos + nl + 1
		}
		line := strings.TrimRight(text[pos:end], " \t\r\n")
		switch {
		case isCodeFence(line):
			fenced = !fenced
		case !fenced && !in && line == state.ClaudeMDHeading:
			in, found = true, true
		case !fenced && in && atxLevel(line) > 0 && atxLevel(line) <= 2:
			return lastFilled, true
		}
		if in && strings.TrimSpace(line) != "" {
			lastFilled = end
		}
		pos = end
	}
	return -1, found
}

func isCodeFence(line string) bool {
	l := strings.TrimLeft(line, " ")
	return len(line)-len(l) <= 3 && (strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"))
}

// atxLevel is the level of an ATX heading line (`## x` is 2), or 0 for any other line.
func atxLevel(line string) int {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return 0
	}
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(l) && l[n] != ' ' && l[n] != '\t') {
		return 0
	}
	return n
}

// Render is the file an artifact kind writes: where it goes, what it says, how it lands. A skill or a
// brief is named by its title's slug, or by the pattern id's slug when the title has none (ContextSaver
// could render `.claude/skills//SKILL.md`: protocol.md, "Differences from ContextSaver"), or by the kind as a last resort.
func Render(kind state.ArtifactKind, p state.Proposal, cwd, patternID string) (path, content, mode string) {
	return RenderNth(kind, p, cwd, patternID, 1)
}

// RenderNth is Render with the n-th name of a skill or a brief: the name with -n after it from n = 2, so
// two rules whose titles slug alike never share one file. Other kinds have one file each, whatever n.
func RenderNth(kind state.ArtifactKind, p state.Proposal, cwd, patternID string, n int) (path, content, mode string) {
	switch kind {
	case state.ArtifactSkill:
		name := nthName(artifactSlug(p.Title, patternID, kind), n)
		return cwd + "/.claude/skills/" + name + "/SKILL.md", skillDoc(p, name), ModeWrite
	case state.ArtifactAgentBrief:
		name := nthName(artifactSlug(p.Title, patternID, kind), n)
		return cwd + "/.claude/agents/" + name + ".md", briefDoc(p, name), ModeWrite
	case state.ArtifactSettingsAllow:
		return cwd + "/.claude/settings.json", p.Body, ModeMergeSettings
	}
	return cwd + "/CLAUDE.md", "\n" + state.ClaudeMDHeading + "\n" + BulletOf(p.Body), ModeAppend
}

func nthName(name string, n int) string {
	if n < 2 {
		return name
	}
	return name + "-" + strconv.Itoa(n)
}

// Renamed is artifact a rendered under its n-th name (see RenderNth), or a itself when its pattern no
// longer proposes it. The daemon asks for it when a's file already holds another rule.
func Renamed(s *state.State, a Artifact, n int) Artifact {
	p := s.PatternByID(a.PatternID)
	if p == nil {
		return a
	}
	proposal, ok := lastingProposal(p)
	if !ok || proposal.Kind != a.Kind {
		return a
	}
	a.Path, a.Content, a.Mode = RenderNth(proposal.Kind, proposal, s.Cwd, p.ID, n)
	return a
}

func artifactSlug(title, patternID string, kind state.ArtifactKind) string {
	if s := jstext.Slug(title); s != "" {
		return s
	}
	if s := jstext.Slug(patternID); s != "" {
		return s
	}
	return string(kind)
}

// Propose is the artifacts that make this session's decisions permanent, largest saving first (ties
// keep pattern order). One written, tried or skipped this session (`<id>:<kind>` in Written) is never
// offered again. A pattern's saving is what three avoided repeats of its cited calls would free.
func Propose(s *state.State) []Artifact {
	out := []Artifact{}
	taken := map[string]bool{}
	for i := range s.Patterns {
		p := &s.Patterns[i]
		proposal, ok := lastingProposal(p)
		if !ok || blank(proposal.Body) || slices.Contains(s.Written, p.ID+":"+string(proposal.Kind)) {
			continue
		}
		path, content, mode := Render(proposal.Kind, proposal, s.Cwd, p.ID)
		for n := 2; mode == ModeWrite && taken[path]; n++ {
			path, content, mode = RenderNth(proposal.Kind, proposal, s.Cwd, p.ID, n)
		}
		taken[path] = true
		out = append(out, Artifact{
			PatternID: p.ID,
			Kind:      proposal.Kind,
			Title:     CleanLine(proposal.Title, TitleMax),
			Path:      path,
			Content:   content,
			SavingPct: state.PctOf(state.Baseline(s, p.Hits).Chars*3, s.Usage.Window),
			Mode:      mode,
			Basis:     SavingBasis,
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SavingPct > out[j].SavingPct })
	return out
}

// lastingProposal is what a decided pattern makes permanent. An Ignore is final for the session and
// proposes nothing, even when the judge attached a proposal; a kill's lasting line is the scoped
// alternative, never its kill prompt. A process finding has no permission to grant, and its lasting
// line is the lean way, not the one-time re-plan.
func lastingProposal(p *state.Pattern) (state.Proposal, bool) {
	if p.Decision == nil || *p.Decision == state.Ignore {
		return state.Proposal{}, false
	}
	// A permission off the allow-list (one stored before saverd refused it, say) is never offered: the
	// pattern's rule is the CLAUDE.md line instead.
	// A proposal with nothing left once cleaned (a bare `<!-- … -->`) is none either.
	if p.Proposal != nil && (p.Lean == nil || p.Proposal.Kind != state.ArtifactSettingsAllow) &&
		(p.Proposal.Kind != state.ArtifactSettingsAllow || PermissionRefused(p.Proposal.Body) == "") && !blank(p.Proposal.Body) {
		return *p.Proposal, true
	}
	return memoryLine(p), true
}

// blank: a rule's text has nothing a reader would see (Clean).
func blank(body string) bool { return strings.TrimSpace(Clean(body)) == "" }

// memoryLine is a decided pattern's rule as one CLAUDE.md line: its lean way, the alternative its Fix
// sent, the person's own instruction.
func memoryLine(p *state.Pattern) state.Proposal {
	var body string
	switch {
	case p.Lean != nil:
		body = *p.Lean
	case *p.Decision == state.Fix:
		body = p.Alternative
	case p.Instruction != nil:
		body = *p.Instruction
	default:
		body = p.Alternative
	}
	// The label is the rule, never the waste: a row offering `Write` reads as what would be written.
	title := ruleTitle(body)
	if title == "" {
		title = p.ID
	}
	return state.Proposal{Kind: state.ArtifactClaudeMD, Title: title, Body: body}
}

// ForCodex is arts as a Codex session's rules: Codex reads AGENTS.md, and has no skills, agent briefs
// or settings permissions of Claude Code's kind, so each rule is an AGENTS.md bullet under the same
// heading: a CLAUDE.md line's own, or for another kind the pattern's line (memoryLine). One written,
// tried or skipped this session is not offered again, as in Propose.
func ForCodex(s *state.State, arts []Artifact) []Artifact {
	out := make([]Artifact, 0, len(arts))
	for _, a := range arts {
		body := BulletOnly(a.Content)
		title := a.Title
		if a.Kind != state.ArtifactClaudeMD {
			p := s.PatternByID(a.PatternID)
			if p == nil {
				continue
			}
			line := memoryLine(p)
			body, title = BulletOf(line.Body), line.Title
		}
		if slices.Contains(s.Written, a.PatternID+":"+string(state.ArtifactAgentsMD)) {
			continue
		}
		a.Kind, a.Title, a.Mode = state.ArtifactAgentsMD, title, ModeAppend
		a.Path, a.Content = s.Cwd+"/AGENTS.md", "\n"+state.ClaudeMDHeading+"\n"+body
		out = append(out, a)
	}
	return out
}

// ruleTitle is the rule's first clause as a label: capitalised, without its full stop.
func ruleTitle(body string) string {
	s := jstext.CollapseWs(body)
	if i := strings.IndexAny(s, ";,"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

func skillDoc(p state.Proposal, name string) string {
	return frontmatter([]string{frontField("name", name), frontField("description", CleanLine(p.Title, TitleMax))}) + proseBody(p.Body)
}

// briefDoc: the frontmatter is saverd's own — the name, the description and the tools BriefTools allows.
// The judge's own `model:` and `tools:` lines at the head of the body (before its first blank line) are
// dropped, never copied: a `tools: Bash` line would hand the brief a shell, a `model:` line pick what it
// costs (ContextSaver lifted both into the frontmatter: protocol.md, "Differences from ContextSaver").
func briefDoc(p state.Proposal, name string) string {
	lines := strings.Split(strings.TrimSpace(Clean(p.Body)), "\n")
	head := leadingLines(lines)
	rest := lines[len(head):]
	fields := []string{frontField("name", name), frontField("description", CleanLine(p.Title, TitleMax)), frontField("tools", state.BriefTools)}
	body := append(withoutHeadField(withoutHeadField(head, "model"), "tools"), rest...)
	return frontmatter(fields) + proseBody(strings.Join(body, "\n"))
}

func leadingLines(lines []string) []string {
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return lines[:i:i]
		}
	}
	return lines[:len(lines):len(lines)]
}

func frontmatter(fields []string) string { return "---\n" + strings.Join(fields, "\n") + "\n---\n\n" }

// frontField is a frontmatter line, its value a JSON string as JSON.stringify writes it.
func frontField(key, value string) string {
	return key + ": " + string(jstext.AppendJSONString(nil, jstext.CollapseWs(value)))
}

// proseBody is a skill's or a brief's body as written: cleaned, capped (CleanBody), one final newline.
func proseBody(body string) string { return CleanBody(body) + "\n" }

// isHeadField: the line opens with `key:`, in any ASCII case.
func isHeadField(line, key string) bool {
	l := strings.TrimSpace(line)
	return len(l) > len(key) && l[len(key)] == ':' && asciiEqualFold(l[:len(key)], key)
}

func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func withoutHeadField(lines []string, key string) []string {
	for i, l := range lines {
		if isHeadField(l, key) {
			out := make([]string, 0, len(lines)-1)
			return append(append(out, lines[:i]...), lines[i+1:]...)
		}
	}
	return lines
}

// ---- settings.json

// MergeSettings adds a permission rule to permissions.allow, keeping every other setting in its place;
// merging a rule already there changes nothing but the layout (2-space JSON and a final newline, as
// JSON.stringify(v, null, 2) writes it). A leading BOM is dropped. A file that still does not parse
// as a JSON object — a comment, say — is never overwritten: the error says why and gives the rule to
// add by hand (ContextSaver started from {} and wrote that back: protocol.md, "Differences from ContextSaver"). An empty file has no
// settings to lose and reads as {}.
func MergeSettings(existing *string, rule string) (string, error) {
	root := &jsonobj.Object{}
	if existing != nil {
		text := strings.TrimPrefix(*existing, "\uFEFF")
		if strings.TrimSpace(text) != "" {
			v, err := jsonobj.Decode(text)
			if err == nil {
				var ok bool
				if root, ok = v.(*jsonobj.Object); !ok {
					err = errors.New("not a JSON object")
				}
			}
			if err != nil {
				return "", fmt.Errorf(".claude/settings.json is not valid JSON (%v): not changed; add the rule by hand: %s", err, jstext.AppendJSONString(nil, rule))
			}
		}
	}
	permissions, ok := root.Get("permissions").(*jsonobj.Object)
	if !ok {
		permissions = &jsonobj.Object{}
	}
	allow, _ := permissions.Get("allow").([]any)
	if !containsRule(allow, rule) {
		allow = append(allow[:len(allow):len(allow)], rule)
	}
	if allow == nil {
		allow = []any{}
	}
	permissions.Set("allow", allow)
	root.Set("permissions", permissions)
	return string(appendIndented(nil, root, "")) + "\n", nil
}

func containsRule(allow []any, rule string) bool {
	for _, a := range allow {
		if s, ok := a.(string); ok && s == rule {
			return true
		}
	}
	return false
}

// appendIndented writes v as JSON.stringify(v, null, 2) does, its scalars as JavaScript prints them.
func appendIndented(b []byte, v any, indent string) []byte {
	return jsonobj.AppendIndented(b, v, indent, func(b []byte, v any) []byte { return jstext.AppendJSON(b, v, nil, false) })
}
