package agentlog

import (
	"fmt"
	"hash/maphash"
	"sort"

	"github.com/saverd/saverd/prices"
)

// sharedKey is a call as it is copied between transcripts: its ids and the time of its line. A fork
// copies its parent's lines whole, time included; two sessions that merely reuse an id (a scripted API
// server numbers its messages msg_0, msg_1, … in every session) are not one call.
func sharedKey(c *call) copiedCall { return copiedCall{key: c.key, at: c.at.UnixNano()} }

// callSeed seeds the calls' hashes, which only index them (see sharedCalls).
var callSeed = maphash.MakeSeed()

// hashCalls sets each call's hash: done as each file is read, in parallel, rather than in sharedCalls.
func hashCalls(calls []call) {
	for i := range calls {
		calls[i].hash = maphash.Comparable(callSeed, sharedKey(&calls[i]))
	}
}

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
	// Almost every call is held by one record: the index keeps its first holder and the session its line
	// names, and only a call held again gets a list of holders. The index is keyed by a hash of the call's
	// key and time, not by the key itself: 150,000 strings hashed, compared and stored in a map of 48-byte
	// entries were a twentieth of `saverd sessions`, all of it after the parallel reading. A hash match is
	// checked against the call it names; two calls whose hashes collide go to the exact map.
	type firstHolder struct {
		rec   int
		named string // the session the copied lines name; "" when the copies disagree
	}
	type ref struct{ rec, call int32 }
	byHash := make(map[uint64]ref, n)
	first := make(map[copiedCall]firstHolder) // calls held again, and calls whose hash another call has
	more := make(map[copiedCall][]int)        // call held by several records → indexes of all of them
	for i := range recs {
		for j := range recs[i].calls {
			c := &recs[i].calls[j]
			k := sharedKey(c)
			r, hit := byHash[c.hash]
			if !hit {
				byHash[c.hash] = ref{int32(i), int32(j)}
				continue
			}
			if f := &recs[r.rec].calls[r.call]; sharedKey(f) == k {
				if _, moved := first[k]; !moved {
					first[k] = firstHolder{rec: int(r.rec), named: f.owner} // held again: to the exact map
				}
			}
			h, seen := first[k]
			if !seen {
				first[k] = firstHolder{rec: i, named: c.owner} // a collision: a call of its own
				continue
			}
			if len(more[k]) == 0 {
				more[k] = []int{h.rec}
			}
			more[k] = append(more[k], i)
			if h.named != c.owner && h.named != "" {
				first[k] = firstHolder{rec: h.rec} // the copies disagree (a fork that renamed them): the first start wins
			}
		}
	}
	drop := make(map[int]map[copiedCall]bool) // record index → calls it gives up
	lost := make(map[[2]int]int)              // (loser, owner) → calls given up
	for k, hs := range more {
		owner := ownerOf(recs, hs, first[k].named)
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
