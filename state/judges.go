package state

import (
	"slices"

	"github.com/saverd/saverd/internal/jstext"
)

// The two judges' runs: one lifecycle, used twice. A run starts (JudgeStart), answers with a merged
// registry or an error (JudgeDone), or, for a fork with no warm snapshot, hands its cadence back
// (JudgeCold). What differs between the habit judge and the process judge is named by JudgeKind at
// the few places it matters: which registry patterns survive an answer and which cards it queues, how
// far the backoff doubles, and what the habit judge alone reports (focus, time, context).

// JudgeKind is which of the two judges a run belongs to.
type JudgeKind uint8

// The two judges. The habit judge is the zero value, so an action that names no kind is its own.
const (
	// HabitJudge finds repeated calls and behaviours, the cards with a signature or a per-turn estimate.
	HabitJudge JudgeKind = iota
	// ProcessJudge finds how the work itself could be leaner: plans, workflows, pace.
	ProcessJudge
)

// judgeKind carries a judge's kind in the type of its state, so State.Judge and State.Process are one
// type (JudgeState) and each still writes its own JSON shape (see JudgeState.MarshalJSON).
type judgeKind interface{ Kind() JudgeKind }

// Habit is the type argument of the habit judge's state, State.Judge.
type Habit struct{}

// Process is the type argument of the process judge's state, State.Process.
type Process struct{}

// Kind is HabitJudge.
func (Habit) Kind() JudgeKind { return HabitJudge }

// Kind is ProcessJudge.
func (Process) Kind() JudgeKind { return ProcessJudge }

// kindOf is the kind K names.
func kindOf[K judgeKind]() JudgeKind {
	var k K
	return k.Kind()
}

// JudgeState is one judge's cadence, cost and last answer (JudgeRecord), and the claim on its run in
// flight. LastAtTokens, Focus, Time and Context are the habit judge's alone: the process judge never sets
// them and its JSON leaves them out.
type JudgeState[K judgeKind] struct {
	JudgeRecord

	// InFlight: a run was claimed (JudgeClaim) and not yet released (JudgeRelease), so no second run of
	// this judge starts. It outlives Running, which a Reset clears while the fork is still out.
	InFlight bool `json:"-"`
	// Asked: someone asked for the answer of the run in flight (a `/saver check` typed while it ran),
	// so that run answers them too; released with the run.
	Asked bool `json:"-"`
}

// JudgeRecord is what a judge's state says in debug.state, field for field and in order: the habit
// judge's shape as it is (JudgeState's own MarshalJSON writes it, and a type of its own has none, so it
// encodes by its fields); the process judge's shape is processJSON.
type JudgeRecord struct {
	LastAtTokens int64     `json:"lastAtTokens"`
	LastAtTurn   int       `json:"lastAtTurn"`
	LastAtSeq    int       `json:"lastAtSeq"`
	LastAtMs     int64     `json:"lastAtMs"`
	Running      bool      `json:"running"`
	Runs         int       `json:"runs"`
	Spent        int64     `json:"spent"`
	Backoff      int64     `json:"backoff"`
	Error        *string   `json:"error"`
	Focus        *string   `json:"focus"`
	Time         *string   `json:"time"`
	Context      *string   `json:"context"`
	Last         *JudgeRun `json:"last"`
}

// processJSON is the process judge's shape in debug.state: its own order, without the habit judge's
// fields.
type processJSON struct {
	LastAtMs   int64     `json:"lastAtMs"`
	LastAtSeq  int       `json:"lastAtSeq"`
	LastAtTurn int       `json:"lastAtTurn"`
	Running    bool      `json:"running"`
	Runs       int       `json:"runs"`
	Spent      int64     `json:"spent"`
	Backoff    int64     `json:"backoff"`
	Error      *string   `json:"error"`
	Last       *JudgeRun `json:"last"`
}

// MarshalJSON writes the judge's own shape. It leaves `& < >` as they are: the encoder that embeds
// this decides whether they are escaped, as it does for every other field of the state.
func (j JudgeState[K]) MarshalJSON() ([]byte, error) {
	if kindOf[K]() == ProcessJudge {
		return jstext.Marshal(processJSON{LastAtMs: j.LastAtMs, LastAtSeq: j.LastAtSeq, LastAtTurn: j.LastAtTurn,
			Running: j.Running, Runs: j.Runs, Spent: j.Spent, Backoff: j.Backoff, Error: j.Error, Last: j.Last})
	}
	return jstext.Marshal(j.JudgeRecord)
}

// JudgeMark is the cadence a run dated when it started, handed back when the run never happened.
type JudgeMark struct {
	LastAtMs   int64 `json:"lastAtMs"`
	LastAtSeq  int   `json:"lastAtSeq"`
	LastAtTurn int   `json:"lastAtTurn"`
}

// MarkOf is the cadence a's judge dates its runs by now, for a JudgeCold to hand back.
func MarkOf(s *State, kind JudgeKind) JudgeMark {
	if kind == ProcessJudge {
		return markOf(&s.Process)
	}
	return markOf(&s.Judge)
}

func markOf[K judgeKind](j *JudgeState[K]) JudgeMark {
	return JudgeMark{LastAtMs: j.LastAtMs, LastAtSeq: j.LastAtSeq, LastAtTurn: j.LastAtTurn}
}

// judgeClaim claims (or releases) the run of kind's judge.
func judgeClaim(s *State, kind JudgeKind, claimed bool) {
	if kind == ProcessJudge {
		claim(&s.Process, claimed)
	} else {
		claim(&s.Judge, claimed)
	}
}

// claim takes (or releases) a judge's one run; a release also answers whoever asked of it.
func claim[K judgeKind](j *JudgeState[K], claimed bool) {
	j.InFlight = claimed
	if !claimed {
		j.Asked = false
	}
}

// judgeStart dates a run's start for its judge's cadence. The process judge counts its turns from the
// start; the habit judge counts tokens and turns from its answer (judgeDone).
func judgeStart[K judgeKind](s *State, j *JudgeState[K], a JudgeStart) {
	j.Running = true
	j.LastAtMs = a.Now
	j.LastAtSeq = a.Seq
	if kindOf[K]() == ProcessJudge {
		j.LastAtTurn = s.Turn
	}
}

// judgeCold: the fork had no warm snapshot, so the run never happened and the cadence it spent is
// handed back.
func judgeCold[K judgeKind](j *JudgeState[K], was JudgeMark) {
	j.LastAtMs = was.LastAtMs
	j.LastAtSeq = was.LastAtSeq
	j.LastAtTurn = was.LastAtTurn
	j.Running = false
}

// judgeDone takes a run's merged registry (see answerOf for what each kind keeps and queues), counts
// its spend against the budget share, and records the run. Over the share the judge backs off,
// doubling: the habit judge's up to JudgeMaxBackoff, the process judge's without a cap (as
// ContextSaver's). Only a habit run that answered spends the load check's arming: a cold snapshot or a
// refusal leaves it for the next opportunity. The cards it queued and brought back are told in e.
func judgeDone[K judgeKind](s *State, j *JudgeState[K], a JudgeDone, e *Effects) {
	habit := kindOf[K]() == HabitJudge
	patterns, cards, queued := answerOf(s, habit, a)
	e.Requeued = requeuedBy(s, patterns, cards)
	e.Queued = queuedOf(queued, cards)
	total := TotalTokens(s)
	spent := j.Spent + a.Spent
	backoff := j.Backoff
	// No completed turn is no budget to be over: the first run of a reloaded session doubles nothing.
	if total > 0 && float64(spent) > JudgeBudgetShare*float64(total) {
		backoff *= 2
		if habit {
			backoff = min(backoff, JudgeMaxBackoff)
		}
	}
	spendRun(s, a.CostUSD, a.Spent)
	s.Patterns = patterns
	s.Cards = cards
	j.Running = false
	j.Runs++
	j.Spent = spent
	j.Backoff = backoff
	j.Error = CopyStr(a.Error)
	j.Last = judgeRunOf(a.Returned, a.Kept, a.Dropped, a.Usage)
	if !habit {
		return
	}
	j.LastAtTokens = total
	j.LastAtTurn = s.Turn
	j.Focus = CopyStr(a.Focus)
	j.Time = CopyStr(a.Time)
	j.Context = CopyStr(a.Context)
	if a.Error == nil {
		s.PendingCheck = false
	}
}

// answerOf is the registry and the queue after a run's answer, and the ids whose cards the run asks
// for. Both kinds queue their fresh undecided findings first. The habit judge also brings back a sent
// pattern it reports as recurred, ignored once more (unless already counted), and keeps of the
// session's own patterns only the decided ones its registry omits, so a decision is never lost; the
// process judge's patterns join beside the habit judge's, every one the registry omits kept.
func answerOf(s *State, habit bool, a JudgeDone) (patterns []Pattern, cards, asked []string) {
	patterns = ownPatterns(a.Patterns, len(s.Patterns))
	var marked []string
	if habit {
		for i := range patterns {
			p := &patterns[i]
			if !slices.Contains(a.Recurred, p.ID) || !IsSent(p.Decision) {
				continue
			}
			marked = append(marked, p.ID)
			if !alreadyIgnored(s, p.ID) {
				p.Ignored++
			}
			p.OpenedAtTurn = nil
		}
	}
	reported := len(patterns)
	for i := range s.Patterns {
		if q := &s.Patterns[i]; (!habit || q.Decision != nil) && patternIn(patterns[:reported], q.ID) == nil {
			patterns = append(patterns, *q)
		}
	}
	if !habit {
		cards = make([]string, 0, len(a.Fresh)+len(s.Cards))
		for _, id := range a.Fresh {
			if undecidedIn(patterns, id) && !slices.Contains(s.Cards, id) {
				cards = append(cards, id)
			}
		}
		return patterns, append(cards, s.Cards...), a.Fresh
	}
	var wanted []string
	for _, id := range a.Fresh {
		if undecidedIn(patterns, id) {
			wanted = append(wanted, id)
		}
	}
	wanted = append(wanted, marked...)
	cards = make([]string, 0, len(wanted)+len(s.Cards))
	for i, id := range wanted {
		if !slices.Contains(wanted[:i], id) && !slices.Contains(s.Cards, id) {
			cards = append(cards, id)
		}
	}
	cards = append(cards, s.Cards...)
	kept := cards[:0]
	for _, id := range cards {
		if patternIn(patterns, id) != nil {
			kept = append(kept, id)
		}
	}
	return patterns, kept, append(append([]string(nil), a.Fresh...), a.Recurred...)
}

// judgeRunOf is one run's report, holding copies of what the action handed in.
func judgeRunOf(returned, kept int, dropped []string, usage *JudgeUsage) *JudgeRun {
	r := &JudgeRun{Returned: returned, Kept: kept, Dropped: append([]string{}, dropped...)}
	if usage != nil {
		u := *usage
		r.Usage = &u
	}
	return r
}

// CopyStr is a copy of an optional string, so what an action hands in is never shared with the state.
func CopyStr(p *string) *string {
	if p == nil {
		return nil
	}
	return new(*p)
}
