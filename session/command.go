package session

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/demo"
	"github.com/saverd/saverd/state/judge"
	"github.com/saverd/saverd/state/view"
)

// The replies /saver gives, word for word as protocol.md's `command.run` table shows them; a usage names
// the command as the session's person types it (Session.command).
func fixUsage(command string) string {
	return "Usage: " + command + " fix [n] [instruction] (a leading number is the card the pane draws; without one: the card whose Fix… field is open, else card 1)"
}

func saverUsage(command string) string {
	return "Usage: " + command + " [check | fix [n] [text] | ignore <n> | write <n> | undo | debug | reset]"
}

const (
	nothingText = "ContextSaver: nothing to decide on"
	resetText   = "ContextSaver: session state reset"
	demoText    = "ContextSaver: demo wasters loaded"
	// cardKind is the characters of a card's behaviour quoted back in a command's reply.
	cardKind = 60
)

// CommandRun (command.run) answers /saver and its subcommands, and resets the session on /clear and /resume.
func (s *Table) CommandRun(p CommandRunParams) (TextResult, error) {
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return TextResult{}, err
	}
	if p.Command == "" {
		return TextResult{}, invalid("params.command: required")
	}
	now := s.Now(p.At)
	var res TextResult
	sess.event(func() {
		switch strings.TrimPrefix(p.Command, "/") {
		case state.SaverCommand.Name:
			res.Text = new(sess.saver(p.Args, now))
		case "clear", "resume":
			sess.resetSession()
		}
	})
	return res, nil
}

// resetSession starts the session over (state.Reset says what survives it).
func (sess *Session) resetSession() { sess.dispatch(state.Reset{}) }

func splitWs(s string) []string { return strings.FieldsFunc(s, unicode.IsSpace) }

func firstField(s string) string {
	if f := splitWs(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// saver is /saver's dispatch: its subcommands and their replies, as protocol.md's `command.run` lists them.
func (sess *Session) saver(args string, now int64) string {
	args = strings.TrimSpace(args)
	sub := firstField(args)
	switch {
	case sub == "" || sub == "rules":
		sess.togglePane()
		shown := "ContextSaver pane hidden"
		if sess.st.PaneOpen {
			shown = "ContextSaver pane shown"
		}
		if line := view.ProcessLine(sess.st); line != nil {
			return shown + " · " + *line
		}
		return shown
	case sub == "check":
		return sess.checkNow(now)
	case sub == "fix":
		return sess.fix(strings.TrimSpace(args[len(sub):]))
	case sub == "ignore":
		return sess.decideByNumber(state.Ignore, strings.TrimSpace(args[len(sub):]))
	case sub == "write":
		return sess.writeByNumber(strings.TrimSpace(args[len(sub):]))
	case sub == "undo" && strings.TrimSpace(args[len(sub):]) == "":
		return sess.undoLast()
	case sub == "demo" && sess.debug:
		sess.demo()
		return demoText
	case sub == "debug":
		return view.DebugDump(sess.st, sess.st.LoadCheckSpoke)
	case sub == "reset":
		sess.resetSession()
		return resetText
	}
	return saverUsage(sess.command())
}

// numberOf reads a token that is all digits as a card number, as JavaScript's Number() does: past
// float64's range it is +Inf (ParseFloat's range error), still a number no card wears.
func numberOf(token string) (float64, bool) {
	if token == "" {
		return 0, false
	}
	for _, r := range token {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, _ := strconv.ParseFloat(token, 64)
	return n, true
}

// noCardText: a number no card wears is a numbering mistake, whichever verb typed it — refused, never obeyed.
func (sess *Session) noCardText(n float64) string {
	return "ContextSaver: no card " + numberText(n) + " (" + openNumbers(state.Numbered(sess.st)) + ")"
}

// openNumbers is the numbers open cards wear: a range when there is no gap (1–3), else each (1, 3).
func openNumbers(numbered []string) string {
	var open []string
	for i, id := range numbered {
		if id != "" {
			open = append(open, strconv.Itoa(i+1))
		}
	}
	if len(open) == len(numbered) {
		return "1–" + strconv.Itoa(len(numbered))
	}
	return strings.Join(open, ", ")
}

// numberText is a typed number as a reply quotes it back, as JavaScript prints it.
func numberText(n float64) string {
	if math.IsInf(n, 1) {
		return "Infinity"
	}
	return jstext.JSNumber(n)
}

// card is the open card numbered n, if any.
func (sess *Session) card(n float64) (string, bool) {
	numbered := state.Numbered(sess.st)
	if n < 1 || n > float64(len(numbered)) || numbered[int(n)-1] == "" {
		return "", false
	}
	return numbered[int(n)-1], true
}

// seatOf is the number the pane draws beside a card; 0 means it is no longer listed.
func (sess *Session) seatOf(patternID string) int { return state.CardNumber(sess.st, patternID) }

func (sess *Session) cardReply(patternID string, seat int, tail string) string {
	kind := patternID
	if p := sess.st.PatternByID(patternID); p != nil {
		kind = p.Kind
	}
	return "ContextSaver: card " + strconv.Itoa(seat) + " — \"" + jstext.FitWords(kind, cardKind) + "\" · " + tail
}

// decideByNumber: `/saver ignore 2` and `/saver fix 2` decide the card the pane numbers 2, and say which.
func (sess *Session) decideByNumber(choice state.Choice, token string) string {
	if len(sess.st.Cards) == 0 {
		return nothingText
	}
	n, ok := numberOf(token)
	if !ok {
		return saverUsage(sess.command())
	}
	id, ok := sess.card(n)
	if !ok {
		return sess.noCardText(n)
	}
	tail := "fixed"
	if choice == state.Ignore {
		tail = "ignored"
	}
	if p := sess.st.PatternByID(id); choice == state.Fix && sess.replyTells && p != nil {
		tail += " — " + p.Alternative // what the Fix's toast says, said once in the reply a harness shows
	}
	reply := sess.cardReply(id, int(n), tail)
	sess.decide(id, choice, nil)
	return reply
}

// fix is `/saver fix [n] [text]`: a leading number is always the card; nothing after it sends the fix the
// card offers, a note sends the note instead.
func (sess *Session) fix(rest string) string {
	first := firstField(rest)
	n, isNum := numberOf(first)
	if len(sess.st.Cards) == 0 {
		return nothingText
	}
	if _, seated := sess.card(n); isNum && !seated {
		return sess.noCardText(n)
	}
	text := rest
	if isNum {
		text = strings.TrimSpace(rest[len(first):])
	}
	if text == "" {
		if !isNum {
			return fixUsage(sess.command())
		}
		return sess.decideByNumber(state.Fix, first)
	}
	var id string
	switch {
	case isNum:
		id, _ = sess.card(n)
	case sess.st.Steering != nil:
		id = *sess.st.Steering
	default:
		id = firstOpen(state.Numbered(sess.st))
	}
	seat := sess.seatOf(id)
	if seat == 0 {
		return fixUsage(sess.command())
	}
	sess.steerSubmit(id, text)
	return sess.cardReply(id, seat, "fixed with your note: "+text)
}

// firstOpen is the open card with the lowest number: "card 1" when it is open.
func firstOpen(numbered []string) string {
	for _, id := range numbered {
		if id != "" {
			return id
		}
	}
	return ""
}

// decide records a choice on a card, says so, and persists the registry.
func (sess *Session) decide(patternID string, choice state.Choice, text *string) {
	p := sess.st.PatternByID(patternID)
	if p == nil {
		return
	}
	kind, alternative := p.Kind, p.Alternative
	if sess.dispatch(state.Decide{PatternID: patternID, Choice: choice, Text: text}).Decided == "" {
		return
	}
	if sess.decidedAt == nil {
		sess.decidedAt = map[string]int64{}
	}
	sess.decidedAt[patternID] = sess.srv.Now(nil)
	// A line typed in a harness is answered by its reply (`card 1 — "…" · ignored`), which says what the
	// toast would say again; a Fix's reply there names what it sends (decideByNumber).
	switch {
	case sess.replyTells:
	case choice == state.Ignore:
		sess.toast("ContextSaver: ignored \"" + kind + "\"")
	case choice == state.Fix:
		sess.toast("ContextSaver: fixed — " + alternative)
	case choice == state.FixWithNote:
		sess.toast("ContextSaver: fixed with your note — " + firstLine(state.Str(text)))
	}
	if err := sess.persistNow(); err != nil {
		// The decision holds for this session; the person is told it will not outlive it.
		sess.toast("ContextSaver: not saved, so it holds for this session only — " + err.Error())
	}
}

func firstLine(text string) string {
	head, _, cut := strings.Cut(text, "\n")
	if !cut {
		return text
	}
	return head + " …"
}

func (sess *Session) steerSubmit(patternID, text string) {
	wanted := strings.TrimSpace(text)
	if wanted == "" {
		sess.toast("ContextSaver: write the instruction first")
		return
	}
	sess.decide(patternID, state.FixWithNote, &wanted)
}

// demoContext is the window filling up to the sample's own 32%, so the trend draws.
var demoContext = []int64{120_000, 190_000, 250_000, 320_000}

// demo loads the pane's own look without waiting for a real finding (debug sessions only).
func (sess *Session) demo() {
	sess.dispatch(state.UsageSample{Usage: demo.Usage(), Now: 0})
	samples := demo.Turns()
	for at, context := range demoContext {
		stat := samples[at%len(samples)]
		stat.Context = new(context)
		sess.dispatch(state.TurnComplete{Stat: stat})
	}
	for _, row := range demo.Rows(sess.st.Turn) {
		sess.addRow(row)
	}
	patterns := demo.Patterns(sess.st.Turn)
	var fresh []string
	for _, p := range patterns {
		if p.Decision == nil {
			fresh = append(fresh, p.ID)
		}
	}
	// The sample's judge run is billed as a fork is, mostly cache reads, and priced at its model's price.
	sess.noteModel(demo.Model, 0)
	usage := demo.WarmForkUsage()
	fork := ForkResult{Usage: judge.ForkUsage{InputTokens: usage.Input, OutputTokens: usage.Output, CacheReadInputTokens: usage.CacheRead}}
	sess.dispatch(state.JudgeDone{
		Kind: state.HabitJudge, Patterns: patterns, Fresh: fresh, Recurred: []string{}, Spent: judge.SpentOf(usage),
		Returned: len(patterns), Kept: len(patterns), Dropped: []string{}, Usage: &usage, CostUSD: sess.costOf(&fork, 0),
	})
	sess.openPane(false)
}
