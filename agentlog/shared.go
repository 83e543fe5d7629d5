package agentlog

import (
	"fmt"
	"sort"

	"github.com/saverd/saverd/prices"
)

// sharedKey is a call as it is copied between transcripts: its ids and the time of its line. A fork
// copies its parent's lines whole, time included; two sessions that merely reuse an id (a scripted API
// server numbers its messages msg_0, msg_1, … in every session) are not one call.
func sharedKey(c *call) copiedCall { return copiedCall{key: c.key, at: c.at.UnixNano()} }

// copiedCall is sharedKey's value: comparable without building a string per call.
type copiedCall struct {
	key string
	at  int64
}

// sharedCalls counts once every call that several records hold, leaving it in its owner: the session
// the copied line names when that is one of the holders (a fork keeps its parent's lines), else the holder
// that started first (then the smaller session id). The other holders are summed again without it.
func sharedCalls(recs []Record, tab *prices.Table) []string {
	n := 0
	for i := range recs {
		n += len(recs[i].calls)
	}
	holders := make(map[copiedCall][]int, n) // call → indexes of the records holding it
	named := make(map[copiedCall]string, n)  // call → the session its line names
	for i := range recs {
		for j := range recs[i].calls {
			c := &recs[i].calls[j]
			k := sharedKey(c)
			holders[k] = append(holders[k], i)
			switch prev, seen := named[k]; {
			case !seen:
				named[k] = c.owner
			case prev != c.owner:
				named[k] = "" // the copies disagree (a fork that renamed them): the first start wins
			}
		}
	}
	drop := make(map[int]map[copiedCall]bool) // record index → calls it gives up
	lost := make(map[[2]int]int)              // (loser, owner) → calls given up
	for k, hs := range holders {
		if len(hs) < 2 {
			continue
		}
		owner := ownerOf(recs, hs, named[k])
		for _, h := range hs {
			if h == owner {
				continue
			}
			if drop[h] == nil {
				drop[h] = make(map[copiedCall]bool)
			}
			drop[h][k] = true
			lost[[2]int{h, owner}]++
		}
	}
	var warn []string
	for h, keys := range drop {
		r := &recs[h]
		kept := r.calls[:0:0]
		for _, c := range r.calls {
			if !keys[sharedKey(&c)] {
				kept = append(kept, c)
			}
		}
		r.calls = kept
		r.finish(tab)
	}
	for pair, n := range lost {
		warn = append(warn, fmt.Sprintf("session %s repeats %d calls of session %s (a forked transcript copies its parent's history): counted once, in %s",
			recs[pair[0]].SessionID, n, recs[pair[1]].SessionID, recs[pair[1]].SessionID))
	}
	sort.Strings(warn)
	return warn
}

func ownerOf(recs []Record, holders []int, named string) int {
	best := holders[0]
	for _, h := range holders {
		if named != "" && recs[h].SessionID == named {
			return h
		}
		a, b := &recs[h], &recs[best]
		if a.Start.Before(b.Start) || a.Start.Equal(b.Start) && a.SessionID < b.SessionID {
			best = h
		}
	}
	return best
}
