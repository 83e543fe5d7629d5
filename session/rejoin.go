package session

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/state"
)

// A daemon that meets a session it does not hold, whose transcript already has a history (a daemon
// restarted mid-session, an idle exit and then a resume), joins it as the daemon that held it left it,
// from the files that outlive that daemon: the transcript (the ledger, what the main loop spent, the
// instructions its context holds), the project's registry (the person's decisions and the cards still
// open) and the forks log (what the judges' forks spent). protocol.md, "hook".

// rejoin is what a join brings back: the state's part (state.Rejoined), and the standing instructions of
// the Fixes it brings back, which the transcript may show the context holds already.
type rejoin struct {
	act   state.Rejoined
	fixes []string
}

// rejoinOf reads what the session had from stored (the registry as the session found it), the main
// loop's usage in its transcript so far, and the forks log. model prices a fork whose line names none.
func (s *Table) rejoinOf(id, transcript string, stored map[string]storedCopy, before bridge.Usage, model string) rejoin {
	var r rejoin
	if since, ok := bridge.StartedAt(transcript); ok {
		r = decidedSince(stored, since)
	}
	r.act.Before = state.Tokens{Input: before.Input, Output: before.Output, CacheRead: before.CacheRead, CacheCreate: before.CacheCreate}
	if path := s.opt.HistoryLogs.ForksLog; path != "" {
		forks, warn := agentlog.ReadForks(path)
		for _, w := range warn {
			s.log.Warn().Str("forks", path).Msg(w)
		}
		r.act.Judge, r.act.Process = s.forkSpend(agentlog.ForksOf(forks, id), model)
	}
	return r
}

// handledBy is the rules the session handled in project cwd, as the journal kept them (handledRule):
// "patternId:kind", as State.Written holds them. None without a journal; one that cannot be read is logged.
func (s *Table) handledBy(cwd, id string) []string {
	j := s.opt.Journal
	if j == nil {
		return nil
	}
	hs, err := j.HandledBy(cwd, id)
	if err != nil {
		s.log.Warn().Err(err).Str("session", id).Msg("rejoin: the rules the session handled are not known")
	}
	out := make([]string, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.PatternID+":"+h.Kind)
	}
	return out
}

// decidedSince is the session's decisions and open cards as the registry keeps them: a pattern decided
// since the session's transcript began was decided in it (an entry stamped before decisions were,
// decidedAt 0, by when it last changed), and one changed since but not decided was a card of it (a
// judge or a detector of this session wrote it). In the order they were last changed, so the open cards
// are numbered as they were found. A Fix with the person's own words stands decided, but its words were
// never stored: it sends nothing again.
func decidedSince(stored map[string]storedCopy, since int64) rejoin {
	ids := make([]string, 0, len(stored))
	for id, c := range stored {
		if c.at >= since || c.decidedAt >= since {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(stored[a].at, stored[b].at), strings.Compare(a, b)) })
	var r rejoin
	for _, id := range ids {
		c := stored[id]
		last := c.sp.LastDecision
		decidedAt := c.decidedAt
		if decidedAt == 0 {
			decidedAt = c.at
		}
		if last == nil || decidedAt < since {
			r.act.Open = append(r.act.Open, id)
			continue
		}
		r.act.Decided = append(r.act.Decided, state.Redecision{PatternID: id, Choice: *last})
		if *last == state.Fix && c.sp.Lean == nil {
			r.fixes = append(r.fixes, state.InstructionOf(state.FixPrompt(&c.sp)))
		}
	}
	return r
}

// forkSpend is what the forks saverd ran for the session spent, per judge: each fork's own tokens (its
// forks-log line) at the price of the model it ran on when it answered, as the session readers price it.
func (s *Table) forkSpend(forks map[string]agentlog.ForkRecord, model string) (habit, process state.PriorRuns) {
	for _, f := range forks {
		r := &habit
		if f.Purpose == "process" {
			r = &process
		}
		r.Runs++
		if f.Tokens == nil {
			continue
		}
		u := state.Tokens{Input: f.Tokens.Input, Output: f.Tokens.Output, CacheRead: f.Tokens.CacheRead, CacheCreate: f.Tokens.CacheWrite}
		spent := u.Input + u.Output + u.CacheCreate
		r.Spent += spent
		m := f.Model
		if m == "" {
			m = model
		}
		at, err := time.Parse(time.RFC3339Nano, f.At)
		usd, ok := 0.0, false
		if err == nil && m != "" && s.opt.Prices != nil {
			usd, ok = s.opt.Prices.Cost(m, at, u)
		}
		if ok {
			r.USD += usd
		} else {
			r.Unpriced += spent
		}
	}
	return habit, process
}
