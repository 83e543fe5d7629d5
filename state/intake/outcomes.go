package intake

import (
	"regexp"
	"strings"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// Outcomes: what a Workflow or Agent result names (its run, its agent, what it returned), and a
// workflow's journal read into started and returned loops. (What a row did for its loop — IsEdit,
// IsCheck, IsRead, CountRow — is in package state, work.go.)

// Journal entry kinds.
const (
	JournalStarted = "started"
	JournalResult  = "result"
)

// ParseJournal reads a workflow journal: one JSON object per line; `started` and `result` entries with
// a string agentId are kept, anything else (bad JSON, other types) is skipped.
func ParseJournal(text string) []state.JournalEntry {
	out := []state.JournalEntry{}
	for _, line := range strings.Split(text, "\n") {
		if e, ok := journalEntryOf(line); ok {
			out = append(out, e)
		}
	}
	return out
}

func journalEntryOf(line string) (state.JournalEntry, bool) {
	if t := strings.TrimLeft(line, " \t\r\n"); t == "" || t[0] != '{' { // only an object can be an entry
		return state.JournalEntry{}, false
	}
	v, err := jstext.DecodeJSON([]byte(line))
	if err != nil {
		return state.JournalEntry{}, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return state.JournalEntry{}, false
	}
	agentID, ok := m["agentId"].(string)
	if !ok {
		return state.JournalEntry{}, false
	}
	switch m["type"] {
	case JournalStarted:
		return state.JournalEntry{Kind: JournalStarted, AgentID: agentID, Label: anyStringPtr(m["label"]), Phase: anyStringPtr(m["phase"])}, true
	case JournalResult:
		result, present := m["result"]
		o := journalOutcome(result, present)
		return state.JournalEntry{Kind: JournalResult, AgentID: agentID, Outcome: &o}, true
	}
	return state.JournalEntry{}, false
}

// journalOutcome: a findings list is counted by severity, a prose review's labels are counted; anything else
// is a report, sized in UTF-16 units by its text or by the JSON it would print as (0 when absent).
func journalOutcome(result any, present bool) state.Outcome {
	if m, ok := result.(map[string]any); ok {
		if findings, ok := m["findings"].([]any); ok {
			return findingsOutcome(findings)
		}
	}
	s, isText := result.(string)
	if isText {
		if o, ok := proseOutcome(s); ok {
			return o
		}
		return state.Outcome{Kind: state.OutcomeReport, Chars: jstext.Len16(s)}
	}
	if !present {
		return state.Outcome{Kind: state.OutcomeReport}
	}
	return state.Outcome{Kind: state.OutcomeReport, Chars: jsonLen16(result)}
}

// findingsOutcome counts a reviewer's findings by severity; one with none of the four names is not counted.
func findingsOutcome(findings []any) state.Outcome {
	o := state.Outcome{Kind: state.OutcomeFindings}
	for _, f := range findings {
		if m, ok := f.(map[string]any); ok {
			countSeverity(&o, anyString(m["severity"]))
		}
	}
	return o
}

func countSeverity(o *state.Outcome, severity string) bool {
	switch severity {
	case "critical":
		o.Critical++
	case "high":
		o.High++
	case "medium":
		o.Medium++
	case "low":
		o.Low++
	default:
		return false
	}
	return true
}

// proseSeverity is the words a prose review labels a finding with, under the four severities. A Go map
// has no inherited names: `Constructor:` counts nothing (protocol.md, "Differences from ContextSaver").
var proseSeverity = map[string]string{
	"critical": "critical", "blocker": "critical", "important": "high", "high": "high", "major": "high",
	"medium": "medium", "moderate": "medium", "minor": "low", "low": "low", "nit": "low",
}

// jsSpace is JavaScript's \s, so the prose patterns read text exactly as ContextSaver's did.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// proseLabel is a label, not a word in a sentence: `(Important)`, `[Minor]`, `**Critical**`,
// `Severity: high`, or `Minor:` opening a line or a bullet (ContextSaver's prose-label pattern, flags gim; only
// `severity` is a literal, so only it is matched case-insensitively).
var proseLabel = regexp.MustCompile(`(?m)\(` + jsSpace + `*(\w+)` + jsSpace + `*\)|\[` + jsSpace + `*(\w+)` + jsSpace + `*\]|\*\*(\w+)\*\*|` +
	asciiFold("severity") + `:` + jsSpace + `*(\w+)|^(?:` + jsSpace + `|[>*\-\d.)#])*(\w+):`)

// proseNone is what follows a label that found nothing under it: `Critical: none`, `**Minor:** 0`, `High: -`.
var proseNone = regexp.MustCompile(`^(?:` + jsSpace + `|[*_:])*(?:` + asciiFold("none") + `|` + asciiFold("nothing") + `|0|` + asciiFold("n/a") + `|` +
	asciiFold("na") + `|—|-|` + asciiFold("no findings") + `)(?:` + jsSpace + `|[.,;:!*_])*$`)

// asciiFold matches word case-insensitively over ASCII only, as a JavaScript /i regex without /u does.
func asciiFold(word string) string {
	var b strings.Builder
	for _, c := range word {
		lower, upper := strings.ToLower(string(c)), strings.ToUpper(string(c))
		if lower == upper {
			b.WriteString(regexp.QuoteMeta(string(c)))
			continue
		}
		b.WriteString("[" + lower + upper + "]")
	}
	return b.String()
}

// proseOutcome counts a prose reply's labelled severities; ok is false when it labels none, so it stays a report.
func proseOutcome(text string) (state.Outcome, bool) {
	o := state.Outcome{Kind: state.OutcomeFindings}
	labelled := 0
	for _, m := range proseLabel.FindAllStringSubmatchIndex(jsLines(text), -1) {
		word := ""
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 {
				word = text[m[2*g]:m[2*g+1]]
				break
			}
		}
		severity, ok := proseSeverity[strings.ToLower(word)]
		if !ok {
			continue
		}
		rest := text[m[1]:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[:nl]
		}
		if proseNone.MatchString(rest) {
			continue
		}
		countSeverity(&o, severity)
		labelled++
	}
	return o, labelled > 0
}

// jsLines makes Go's (?m)^ see every line JavaScript's does: after \r, U+2028 and U+2029 too. The
// replacements keep every byte offset, so matches index the original text.
func jsLines(text string) string {
	if !strings.ContainsAny(text, "\r\u2028\u2029") {
		return text
	}
	return strings.NewReplacer("\r", "\n", "\u2028", "  \n", "\u2029", "  \n").Replace(text)
}

// RunOf is the run a Workflow result launched locally (its id, name and transcript dir), or nil.
func RunOf(value any) *state.RunInfo {
	m, ok := value.(map[string]any)
	if !ok || m["taskType"] != "local_workflow" {
		return nil
	}
	id, okID := m["runId"].(string)
	name, okName := m["workflowName"].(string)
	if !okID || !okName {
		return nil
	}
	return &state.RunInfo{ID: id, Name: name, Dir: anyStringPtr(m["transcriptDir"])}
}

// AgentOf is the loop an Agent result closed: its id, the description it was given and the model that
// ran it; ok is false when the value names no agent. The caller adds the call's own description to the
// value first, as ContextSaver did.
func AgentOf(value any) (state.AgentStart, bool) {
	m, ok := value.(map[string]any)
	if !ok {
		return state.AgentStart{}, false
	}
	id, ok := m["agentId"].(string)
	if !ok {
		return state.AgentStart{}, false
	}
	return state.AgentStart{AgentID: id, Description: anyString(m["description"]), Model: anyStringPtr(m["resolvedModel"])}, true
}
