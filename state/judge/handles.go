package judge

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/rules"
)

// Reply parsing shared by the habit and process judges: the evidence handles each may cite, and the
// grounded ceiling on what a finding may claim.

// cellOf is the model's text quoted inside a one-line drop reason: anything but a string is "",
// whitespace is collapsed so a multi-line value never breaks the one-reason-per-line contract.
func cellOf(v any, max int) string { return jstext.Cell(str(v), max) }

// digitsOf is s's digits after prefix when s is prefix and one or more ASCII digits (JavaScript's
// /^prefix(\d+)$/), and the number JavaScript's Number() makes of them.
func digitsOf(s, prefix string) (float64, bool) {
	if !strings.HasPrefix(s, prefix) || len(s) == len(prefix) {
		return 0, false
	}
	d := s[len(prefix):]
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(d, 64)
	if err != nil && !math.IsInf(f, 1) {
		return 0, false
	}
	return f, true
}

// turnOf is the turn a `turn:<n>` handle names; a number no int holds names no turn.
func turnOf(handle string) (int, bool) {
	f, ok := digitsOf(handle, "turn:")
	if !ok || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// isTurnHandle is JavaScript's /^turn:\d+$/.
func isTurnHandle(handle string) bool {
	_, ok := digitsOf(handle, "turn:")
	return ok
}

// agentOf is what follows `agent:` in a handle (JavaScript's /^agent:(.+)$/: one or more characters,
// none a line terminator).
func agentOf(handle string) (string, bool) {
	if !strings.HasPrefix(handle, "agent:") || len(handle) == len("agent:") || !jsLine(handle) {
		return "", false
	}
	return handle[len("agent:"):], true
}

// runOf is what follows `run:` in a handle, on the same terms.
func runOf(handle string) (string, bool) {
	if !strings.HasPrefix(handle, "run:") || len(handle) == len("run:") || !jsLine(handle) {
		return "", false
	}
	return handle[len("run:"):], true
}

// isWide: a handle that names no single row, a turn of the main loop or a whole agent loop.
func isWide(handle string) bool {
	_, agent := agentOf(handle)
	return isTurnHandle(handle) || agent
}

// handleDrop is why one evidence handle was refused.
func handleDrop(v any, sig *state.Signature) string {
	handle := cellOf(v, 40)
	if handle == "" {
		return "evidence handle is not a string"
	}
	if isWide(handle) && sig != nil {
		return "evidence " + handle + " needs signature null"
	}
	if _, ok := agentOf(handle); ok {
		return "evidence " + handle + " not in AGENTS"
	}
	return "evidence " + handle + " not in the ledger"
}

// loopOf is the loop an `agent:<alias>` handle names under the alias table AGENTS and LEDGER printed —
// the one the prompt was built with, not today's: a judge run takes minutes, and a new agent's first
// row landing in that time (or an old agent's last row falling off RowCap) renumbers the loops.
func loopOf(s *state.State, aliases map[string]string, alias string) *state.Loop {
	for i := range s.Loops {
		if a, ok := aliases[s.Loops[i].ID]; ok && a == alias {
			return &s.Loops[i]
		}
	}
	return nil
}

// visibleRows indexes the citable rows by seq.
type visibleRows map[int]*state.Row

func indexRows(rows []state.Row) visibleRows {
	m := make(visibleRows, len(rows))
	for i := range rows {
		m[rows[i].Seq] = &rows[i]
	}
	return m
}

// handleOf is the stored handle one cited handle maps to (a row's tool_use_id, `turn:<n>`,
// `agent:<agentId>`), or "" when it names nothing the prompt printed.
func handleOf(v any, s *state.State, visible visibleRows, aliases map[string]string, sig *state.Signature) string {
	handle := str(v)
	if seq, ok := digitsOf(handle, "r"); ok {
		if seq > math.MaxInt32 || seq != math.Trunc(seq) {
			return ""
		}
		if row := visible[int(seq)]; row != nil {
			return row.ID
		}
		return ""
	}
	if sig != nil {
		return ""
	}
	if isTurnHandle(handle) {
		n, ok := turnOf(handle)
		if ok && hasTurn(s, n) {
			return "turn:" + strconv.Itoa(n)
		}
		return ""
	}
	if alias, ok := agentOf(handle); ok {
		// Stored by id, not alias: the alias is a naming of the rows in hand and can renumber between runs.
		if l := loopOf(s, aliases, alias); l != nil {
			return "agent:" + l.ID
		}
	}
	return ""
}

func hasTurn(s *state.State, n int) bool {
	for i := range s.Turns {
		if s.Turns[i].Turn == n {
			return true
		}
	}
	return false
}

// evidenceOf is the stored handles a finding cites, or the reason its evidence cannot be used.
func evidenceOf(v any, s *state.State, visible visibleRows, aliases map[string]string, sig *state.Signature) ([]string, string) {
	raw, ok := array(v)
	if !ok || len(raw) == 0 {
		return nil, "evidence must be a non-empty array of row ids"
	}
	handles := make([]string, len(raw))
	for i, h := range raw {
		handles[i] = handleOf(h, s, visible, aliases, sig)
		if handles[i] == "" {
			return nil, handleDrop(h, sig)
		}
	}
	return state.Unique(handles), ""
}

// citedLoops is the loops the evidence's agent handles name.
func citedLoops(s *state.State, evidence []string) []*state.Loop {
	var out []*state.Loop
	for _, h := range evidence {
		if id, ok := agentOf(h); ok {
			if l := s.LoopByID(id); l != nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// citedTurns is the turns the evidence names: a turn handle's own, a loop's first, a row's. Numbers,
// as ContextSaver's are: a turn handle past any int still reads as later than every decision.
func citedTurns(s *state.State, evidence []string) []float64 {
	var out []float64
	for _, h := range evidence {
		if n, ok := digitsOf(h, "turn:"); ok {
			out = append(out, n)
			continue
		}
		if id, ok := agentOf(h); ok {
			if l := s.LoopByID(id); l != nil {
				out = append(out, float64(l.FirstTurn))
			}
			continue
		}
		for i := range s.Rows {
			if s.Rows[i].ID == h {
				out = append(out, float64(s.Rows[i].Turn))
				break
			}
		}
	}
	return out
}

// groundedCap is the most a signature-null finding may claim per turn: what one avoided loop cost when
// it cites loops alone, else a quarter of the median answer of the turns it cites.
func groundedCap(s *state.State, evidence []string) float64 {
	loops := citedLoops(s, evidence)
	anyTurn := false
	for _, h := range evidence {
		if isTurnHandle(h) {
			anyTurn = true
			break
		}
	}
	if len(loops) > 0 && !anyTurn {
		tokens := make([]float64, len(loops))
		for i, l := range loops {
			tokens[i] = float64(state.LoopTokens(l))
		}
		return math.Floor(state.Median(tokens))
	}
	turns := citedTurns(s, evidence)
	var answers []float64
	for i := range s.Turns {
		if slices.Contains(turns, float64(s.Turns[i].Turn)) {
			answers = append(answers, float64(s.Turns[i].AnswerChars))
		}
	}
	return math.Floor(state.Median(answers) / 4)
}

var settingsRule = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*\([^\n\r\x{2028}\x{2029}]+\)$`)

// proposalOf is the lasting rule a finding proposes, or nil when it is absent or malformed; a
// settings-allow body must be a permission rule such as `Bash(bun test:*)` of a shape the allow-list
// holds (rules.PermissionRefused).
func proposalOf(v any) *state.Proposal {
	m, ok := record(v)
	if !ok {
		return nil
	}
	kind, _ := m["kind"].(string)
	title := jstext.CollapseWs(str(m["title"]))
	body := strings.TrimSpace(str(m["body"]))
	if !state.IsArtifactKind(kind) || title == "" || body == "" {
		return nil
	}
	if state.ArtifactKind(kind) == state.ArtifactSettingsAllow && (!settingsRule.MatchString(body) || rules.PermissionRefused(body) != "") {
		return nil
	}
	return &state.Proposal{Kind: state.ArtifactKind(kind), Title: title, Body: body}
}
