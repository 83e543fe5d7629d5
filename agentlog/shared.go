package agentlog

import (
	"fmt"
	"hash/maphash"
	"runtime"
	"sort"
	"sync"

	"github.com/saverd/saverd/prices"
)

// sharedKey is a call as it is copied between transcripts: its ids and the time of its line. A fork
// copies its parent's lines whole, time included; two sessions that merely reuse an id (a scripted API
// server numbers its messages msg_0, msg_1, … in every session) are not one call.
func sharedKey(c *Call) copiedCall { return copiedCall{key: c.Key, at: c.At.UnixNano()} }

// callSeed seeds the calls' hashes, which only index them (see sharedCalls).
var callSeed = maphash.MakeSeed()

// hashCalls sets the record's hashes of its calls: done as each file is read, in parallel, rather than
// in sharedCalls, and kept apart from the calls so that sharedCalls reads 8 bytes a call, in order.
func hashCalls(r *Record) {
	r.hashes = make([]uint64, len(r.calls))
	for i := range r.calls {
		r.hashes[i] = maphash.Comparable(callSeed, sharedKey(&r.calls[i]))
	}
}

// copiedCall is sharedKey's value: comparable without building a string per call.
type copiedCall struct {
	key string
	at  int64
}

// sharedCalls counts once every call that several records hold, leaving it in its owner (ownerOf). The
// other holders are summed again without it. Each session that repeated another's calls is a warning,
// unless forks names the copier as a fork saverd ran of the owner (its copy is by design).
func sharedCalls(recs []Record, tab *prices.Table, forks map[string]ForkRecord) []string {
	n := 0
	for i := range recs {
		if len(recs[i].hashes) != len(recs[i].calls) {
			hashCalls(&recs[i]) // a record Scan's readers did not hash: its calls are indexed all the same
		}
		n += len(recs[i].calls)
	}
	// Almost every call is held by one record: the index keeps its first holder and the session its line
	// names, and only a call held again gets a list of holders. The index is keyed by a hash of the call's
	// key and time, not by the key itself: 150,000 strings hashed, compared and stored in a map of 48-byte
	// entries were a twentieth of `saverd sessions`, all of it after the parallel reading. A hash match is
	// checked against the call it names; two calls whose hashes collide go to the exact map. Past
	// shardAbove calls the hashes are split in two by their lowest bit, each half indexed on a core of
	// its own (a call and its copies have one hash, so they land in the same half).
	shards := 1
	if n > shardAbove && runtime.GOMAXPROCS(0) > 1 {
		shards = 2
	}
	idx := make([]sharedIndex, shards)
	var wg sync.WaitGroup
	for sh := range idx {
		wg.Go(func() { idx[sh] = indexCalls(recs, uint64(sh), uint64(shards), n/shards) })
	}
	wg.Wait()
	for i := range recs {
		recs[i].hashes = nil // the index is built: the records need not keep them
	}
	drop := make(map[int]map[copiedCall]bool) // record index → calls it gives up
	lost := make(map[[2]int]int)              // (loser, owner) → calls given up
	for _, x := range idx {
		for k, hs := range x.more {
			owner := ownerOf(recs, hs, x.first[k].named, forks)
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
		if f, ok := forks[recs[pair[0]].SessionID]; ok && f.Parent == recs[pair[1]].SessionID {
			continue // a fork saverd ran repeats its parent's history by design: no news to the person
		}
		warn = append(warn, fmt.Sprintf("session %s repeats %d calls of session %s (a forked transcript copies its parent's history): counted once, in %s",
			recs[pair[0]].SessionID, n, recs[pair[1]].SessionID, recs[pair[1]].SessionID))
	}
	sort.Strings(warn)
	return warn
}

// shardAbove is the number of calls past which sharedCalls indexes them on two cores (a variable for
// the tests).
var shardAbove = 1 << 14

// firstHolder is the record that holds a call first, and the session the copied lines name; "" when the
// copies disagree.
type firstHolder struct {
	rec   int
	named string
}

// sharedIndex is what sharedCalls' index found in one part of the calls: the calls held again (and those
// whose hash another call has) with their first holder, and the holders of each call held again.
type sharedIndex struct {
	first map[copiedCall]firstHolder
	more  map[copiedCall][]int
}

// indexCalls indexes the calls whose hash is shard modulo shards (about n of them), in record order.
func indexCalls(recs []Record, shard, shards uint64, n int) sharedIndex {
	type ref struct{ rec, call int32 }
	byHash := make(map[uint64]ref, n)
	x := sharedIndex{first: make(map[copiedCall]firstHolder), more: make(map[copiedCall][]int)}
	for i := range recs {
		r := &recs[i]
		for j, hash := range r.hashes { // hashed as Scan read the record (hashCalls)
			if hash%shards != shard {
				continue
			}
			at, hit := byHash[hash]
			if !hit {
				byHash[hash] = ref{int32(i), int32(j)}
				continue
			}
			c := &r.calls[j]
			k := sharedKey(c)
			if f := &recs[at.rec].calls[at.call]; sharedKey(f) == k {
				if _, moved := x.first[k]; !moved {
					x.first[k] = firstHolder{rec: int(at.rec), named: f.Owner} // held again: to the exact map
				}
			}
			h, seen := x.first[k]
			if !seen {
				x.first[k] = firstHolder{rec: i, named: c.Owner} // a collision: a call of its own
				continue
			}
			if len(x.more[k]) == 0 {
				x.more[k] = []int{h.rec}
			}
			x.more[k] = append(x.more[k], i)
			if h.named != c.Owner && h.named != "" {
				x.first[k] = firstHolder{rec: h.rec} // the copies disagree (a fork that renamed them): the first start wins
			}
		}
	}
	return x
}

// ownerOf is the holder a call several records hold counts in: the session that wrote it. That is the
// session its copied lines name, when that is one of the holders (Claude Code 2.1.328 writes a fork's own
// id in each copied line's sessionId and the writer's in requestSessionId; the reader takes the latter).
// When the lines name none of the holders, a fork saverd ran (the forks log names it) is never the owner
// of what another holder holds, and of the rest the one whose log began first wrote it: a fork's log
// begins when it was forked, after the lines it copies with their times. Only when even that ties is the
// earliest start, then the smaller session id, taken, so that the answer is the same on every run.
func ownerOf(recs []Record, holders []int, named string, forks map[string]ForkRecord) int {
	best := -1
	for _, h := range holders {
		if named != "" && recs[h].SessionID == named {
			return h
		}
		if best < 0 || writesFirst(&recs[h], &recs[best], forks) {
			best = h
		}
	}
	return best
}

// writesFirst says whether a, rather than b, is taken to have written a call both hold when neither is
// named as its writer (ownerOf).
func writesFirst(a, b *Record, forks map[string]ForkRecord) bool {
	_, aFork := forks[a.SessionID]
	_, bFork := forks[b.SessionID]
	if aFork != bFork {
		return bFork
	}
	if ab, bb := a.beganAt(), b.beganAt(); !ab.Equal(bb) {
		return ab.Before(bb)
	}
	if !a.Start.Equal(b.Start) {
		return a.Start.Before(b.Start)
	}
	return a.SessionID < b.SessionID
}
