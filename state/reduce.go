package state

import (
	"slices"
	"strings"
)

// Reduce applies one action to s, in place, with ContextSaver's meaning for every member of its Action union,
// and says what it did that a caller answers (see Effects). It follows the package's mutation rule: the
// slices Clone shares are only appended to or replaced, so a clone taken before the call never sees it.
// An unknown action, or a nil pointer to one, changes nothing.
func Reduce(s *State, a Action) Effects {
	var e Effects
	if s == nil {
		return e
	}
	saved, cards := s.Saved, s.Cards
	reduce(s, a, &e)
	if !sameSlice(cards, s.Cards) { // Cards is replaced or grown, never written in place
		keepSeats(s)
	}
	e.Saved = Saved{Ms: s.Saved.Ms - saved.Ms, Chars: s.Saved.Chars - saved.Chars}
	return e
}

// reduce is Reduce's switch over the action union; what an action did is told in e.
func reduce(s *State, a Action, e *Effects) {
	switch a := deref(a).(type) {
	case TurnStart:
		turnStart(s, a.Now)
	case LoopTurn:
		loopTurn(s, a)
	case AgentStart:
		agentStart(s, a)
	case RunStart:
		runStart(s, a.Run, a.Now)
	case RunJournal:
		runJournal(s, a)
	case AddRow:
		addRow(s, a.Row, e)
	case Adopt:
		adoptHistory(s, a.Rows)
	case TurnComplete:
		turnComplete(s, a.Stat, e)
	case TurnLate:
		turnLate(s, a)
	case UsageSample:
		usageSample(s, a.Usage, a.Now)
	case SetOverhead:
		o := a.Overhead
		s.Overhead = &o
	case Compact:
		// The fill a compaction invalidated is forgotten: tokens are sticky and a just-compacted window
		// reports none until its next response, so the header awaits the next turn instead of announcing
		// two turns to a compaction that just happened.
		s.Compactions = append(s.Compactions, s.Turn)
		s.Usage.Tokens = nil
		s.Usage.Percent = nil
		// Nothing saverd sent is in the new context: the standing instructions go out again, and what
		// the fixes kept out of the old one is re-read no more.
		s.Delivered = nil
		compactMoney(s)
	case Expand:
		if a.PatternID == nil || sameID(a.PatternID, s.Expanded) {
			s.Expanded = nil
		} else {
			s.Expanded = new(*a.PatternID)
		}
	case SteerBegin:
		if s.Steering != nil && *s.Steering == a.PatternID {
			s.Steering = nil
		} else {
			s.Steering = new(a.PatternID)
		}
		s.SteerDraft = nil
	case SteerDraft:
		s.SteerDraft = new(a.Text)
	case Decide:
		decide(s, a.PatternID, a.Choice, a.Text, e)
	case JudgeStart:
		if a.Kind == ProcessJudge {
			judgeStart(s, &s.Process, a)
		} else {
			judgeStart(s, &s.Judge, a)
		}
	case JudgeDone:
		if a.Kind == ProcessJudge {
			judgeDone(s, &s.Process, a, e)
		} else {
			judgeDone(s, &s.Judge, a, e)
		}
	case JudgeCold:
		if a.Kind == ProcessJudge {
			judgeCold(&s.Process, a.Was)
		} else {
			judgeCold(&s.Judge, a.Was)
		}
	case JudgeClaim:
		judgeClaim(s, a.Kind, true)
	case JudgeRelease:
		judgeClaim(s, a.Kind, false)
	case JudgeAsked:
		if a.Kind == ProcessJudge {
			s.Process.Asked = true
		} else {
			s.Judge.Asked = true
		}
	case LoadCheckSpoke:
		s.LoadCheckSpoke = true
	case LoopProbed:
		s.Probed = withKey(s.Probed, a.AgentID, true)
	case RewriteOpened:
		s.Rewrites = withKey(s.Rewrites, a.SpawnID, true)
	case RewriteClosed:
		s.Rewrites = withKey(s.Rewrites, a.SpawnID, false)
	case AddAsk:
		s.Asks = append(s.Asks, a.Ask)
	case RunPhases:
		runPhases(s, a.RunID, a.Phases)
	case DeliveryPending:
		s.Delivery.Pending = max(0, s.Delivery.Pending+a.Delta)
	case DeliverySent:
		deliverySent(s, a.AgentID)
	case DeliveryToasted:
		s.Delivery.LastToastAt = a.Now
	case CheckArm:
		s.PendingCheck = true
	case NotesDrained:
		s.Notes = []string{}
	case StandingAdd:
		s.Standing = pushUnique(s.Standing, a.Text)
	case ArtifactDone:
		artifactDone(s, a)
	case SetPane:
		s.PaneOpen = a.Open
		if a.Auto {
			s.AutoOpened = true
		}
	case SetColumns:
		s.Columns = new(a.Columns)
	case SetPrice:
		s.Money.Model, s.Money.CacheRead, s.Money.CacheWrite, s.Money.Priced = a.Model, a.CacheRead, a.CacheWrite, a.Known
	case Injected:
		inject(s, a)
	case ContextHolds:
		held(s, a.Texts)
	case Rejoined:
		rejoined(s, a)
	case SetBudget:
		s.Budget = min(1, max(0, a.Share))
	case Reset:
		resetState(s)
	case Detected:
		detected(s, a, e)
	}
}

// sameSlice reports whether a and b are one slice: the same length over the same array.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// withKey is a copy of m with key set (or removed): the maps State holds are copy-on-write, so a clone
// taken before the change never sees it.
func withKey(m map[string]bool, key string, on bool) map[string]bool {
	next := make(map[string]bool, len(m)+1)
	for k := range m {
		next[k] = true
	}
	if on {
		next[key] = true
	} else {
		delete(next, key)
	}
	return next
}

// deref turns a pointer to an action into the action, so a caller passing &AddRow{…} is not silently
// ignored; a nil pointer is no action.
func deref(a Action) Action {
	switch p := a.(type) {
	case *TurnStart:
		return derefOf(p)
	case *LoopTurn:
		return derefOf(p)
	case *AgentStart:
		return derefOf(p)
	case *RunStart:
		return derefOf(p)
	case *RunJournal:
		return derefOf(p)
	case *AddRow:
		return derefOf(p)
	case *Adopt:
		return derefOf(p)
	case *TurnComplete:
		return derefOf(p)
	case *TurnLate:
		return derefOf(p)
	case *UsageSample:
		return derefOf(p)
	case *SetOverhead:
		return derefOf(p)
	case *Compact:
		return derefOf(p)
	case *Expand:
		return derefOf(p)
	case *SteerBegin:
		return derefOf(p)
	case *SteerDraft:
		return derefOf(p)
	case *Decide:
		return derefOf(p)
	case *JudgeStart:
		return derefOf(p)
	case *JudgeDone:
		return derefOf(p)
	case *JudgeCold:
		return derefOf(p)
	case *JudgeClaim:
		return derefOf(p)
	case *JudgeRelease:
		return derefOf(p)
	case *JudgeAsked:
		return derefOf(p)
	case *LoadCheckSpoke:
		return derefOf(p)
	case *LoopProbed:
		return derefOf(p)
	case *RewriteOpened:
		return derefOf(p)
	case *RewriteClosed:
		return derefOf(p)
	case *AddAsk:
		return derefOf(p)
	case *RunPhases:
		return derefOf(p)
	case *DeliveryPending:
		return derefOf(p)
	case *DeliverySent:
		return derefOf(p)
	case *DeliveryToasted:
		return derefOf(p)
	case *CheckArm:
		return derefOf(p)
	case *NotesDrained:
		return derefOf(p)
	case *StandingAdd:
		return derefOf(p)
	case *ArtifactDone:
		return derefOf(p)
	case *SetPane:
		return derefOf(p)
	case *SetColumns:
		return derefOf(p)
	case *Reset:
		return derefOf(p)
	case *Injected:
		return derefOf(p)
	case *ContextHolds:
		return derefOf(p)
	case *Rejoined:
		return derefOf(p)
	}
	return a
}

func derefOf[T Action](p *T) Action {
	if p == nil {
		return nil
	}
	return *p
}

// sameID reports whether two optional ids are equal (both absent counts as equal).
func sameID(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// pushUnique appends x unless xs already holds it. It only ever appends, so it keeps the mutation rule.
func pushUnique(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// IsSent: Fix… and Fix send an instruction; Ignore sends nothing.
func IsSent(c *Choice) bool { return c != nil && (*c == FixWithNote || *c == Fix) }

// usageSample applies a context sample: present values win, window and compactAt stick, so a partial
// sample never blanks the header. The first sample also dates the mid-turn cadence: without it lastAtMs
// is 0 against a clock reading ms since the epoch, so the five-minute floor would be no floor at all; a
// Now of 0 (the demo) seeds nothing.
func usageSample(s *State, u Usage, now int64) {
	if u.Window != 0 {
		s.Usage.Window = u.Window
	}
	if u.CompactAt != nil {
		s.Usage.CompactAt = new(*u.CompactAt)
	}
	if u.Tokens != nil {
		s.Usage.Tokens = new(*u.Tokens)
	}
	if u.Percent != nil {
		s.Usage.Percent = new(*u.Percent)
	}
	if s.Judge.LastAtMs == 0 && now > 0 {
		s.Judge.LastAtMs = now
	}
}

// turnStart begins a turn; the wait before this prompt is written onto the turn it followed, so TURNS
// can say the person was away.
func turnStart(s *State, now int64) {
	if n := len(s.Turns); n > 0 && s.Turns[n-1].At > 0 {
		s.Turns[n-1].IdleMs = max(0, now-s.Turns[n-1].At)
	}
	s.Turn++
}

// deliverySent counts one agent reached by the standing instructions, once, on every habit pattern
// whose instruction is standing.
func deliverySent(s *State, agentID string) {
	if slices.Contains(s.Delivery.Agents, agentID) {
		return
	}
	s.Delivery.Agents = append(s.Delivery.Agents, agentID)
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if p.Lean != nil || p.Instruction == nil {
			continue
		}
		for _, t := range s.Standing {
			if strings.Contains(t, *p.Instruction) {
				p.Sent++
				break
			}
		}
	}
}

// artifactDone clears the pattern's proposal (it is handled) and records `<id>:<kind>` when written.
func artifactDone(s *State, a ArtifactDone) {
	for i := range s.Patterns {
		if s.Patterns[i].ID == a.PatternID {
			s.Patterns[i].Proposal = nil
		}
	}
	if a.Written {
		s.Written = pushUnique(s.Written, a.PatternID+":"+string(a.Kind))
	}
}

// resetState starts the session over: patterns survive as stored, the overhead, the band width and the pane's
// open state are kept. So is what is still out in the world: a claimed judge run (and whoever asked of
// it) and the open prompt rewrites, which will answer into this session whatever it holds by then.
func resetState(s *State) {
	fresh := New(s.Cwd, s.Usage.Window)
	fresh.Judge.InFlight, fresh.Judge.Asked = s.Judge.InFlight, s.Judge.Asked
	fresh.Process.InFlight, fresh.Process.Asked = s.Process.InFlight, s.Process.Asked
	fresh.Rewrites = s.Rewrites
	fresh.Overhead = s.Overhead
	fresh.Columns = s.Columns
	fresh.PaneOpen = s.PaneOpen
	fresh.Budget = s.Budget
	fresh.Money = Money{Model: s.Money.Model, CacheRead: s.Money.CacheRead, CacheWrite: s.Money.CacheWrite, Priced: s.Money.Priced}
	fresh.Patterns = make([]Pattern, len(s.Patterns))
	for i := range s.Patterns {
		fresh.Patterns[i] = FromStored(ToStored(&s.Patterns[i]))
	}
	// The snapshot's tracking carries on: the folded records it can undo to are the ones dropped here.
	s.track.replacedFolded(s.Folded)
	fresh.track = s.track
	*s = *fresh
}

// lookup is the reducer's private index of ids, so one row costs the same on a full session as on an
// empty one: a loop by id (400 loops), a row by id (2000 rows, for the class a settling pattern
// cites) and the patterns by their signature's key (50 patterns, for the row that carries it). It
// belongs to one State: Clone drops it, and it is checked against the slices it indexes (their length
// and their first element's address) before every use, so a State changed behind the reducer's back
// (decoded from JSON, built by hand, appended to directly) is re-indexed, never misread. What it keys
// on is never edited in place: a loop's id, a row's id and a pattern's signature are set when the
// element is made (a judge's answer and a reset bring new Patterns).
// The folded records' order (foldOrder) is checked the same way, against the map's identity and length.
type lookup struct {
	loops    map[string]int // loop id → its position plus loopBase at the time it was added
	loopBase int            // loops dropped off the front so far
	loopDups bool           // an id is held twice: fall back to scanning, as ContextSaver's map over loops does
	loopLen  int
	loopHead *Loop

	rows    map[string]int // row id → the seq of the first row still in the ledger with that id; nil until needed
	rowDups bool           // an id is held twice: fall back to scanning
	rowLen  int
	rowHead *Row
	cited   []citedMemo // per position in Patterns: its first cited row, remembered (see firstCited)

	signed  map[string][]int // signature key → the positions in Patterns carrying it, in order; nil until needed
	sigLen  int
	sigHead *Pattern

	folded *foldOrder // the folded records by size, for capFolded; nil until the first fold
}

// index is s's lookup, created empty on first use.
func (s *State) index() *lookup {
	if s.idx == nil {
		s.idx = &lookup{}
	}
	return s.idx
}
