package claude

import "github.com/saverd/saverd/prices"

// What makes an API call of a transcript and what it is billed, in one place for every reader here: the
// sessions reader, the audit's and a turn's usage the hook reads. Claude Code writes one line per content
// block of a response, each repeating the response's usage: a call is one message.id and requestId (a
// line with no message id is a call of its own, by its uuid), billed the largest usage any of its lines
// shows.

// claudeUsage is a message's usage object.
type claudeUsage struct {
	Input       int64 `json:"input_tokens"`
	Output      int64 `json:"output_tokens"`
	CacheRead   int64 `json:"cache_read_input_tokens"`
	CacheCreate int64 `json:"cache_creation_input_tokens"`
	Creation    *struct {
		W5m int64 `json:"ephemeral_5m_input_tokens"`
		W1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

// usage converts Claude Code's usage: the cache writes split by lifetime when the line says so, else all
// 5-minute writes (the default lifetime, and what Claude Code's own cost-state charged).
func (u *claudeUsage) usage() prices.Usage {
	out := prices.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead}
	if c := u.Creation; c != nil && c.W5m+c.W1h > 0 {
		out.CacheWrite5m, out.CacheWrite1h = c.W5m, c.W1h
		out.CacheWrite5m += max(0, u.CacheCreate-c.W5m-c.W1h)
	} else {
		out.CacheWrite5m = u.CacheCreate
	}
	return out
}

// isCall reports whether an assistant line's message is an API call: it has a usage, and it is no
// message Claude Code made up itself (model "<synthetic>": an error, an interruption).
func isCall(usage *claudeUsage, model string) bool { return usage != nil && model != "<synthetic>" }

// larger reports whether a line's usage replaces the one its call holds.
func larger(u, held prices.Usage) bool { return u.Prompt()+u.Output > held.Prompt()+held.Output }

// callIndex tells a transcript's calls apart by their key, numbering them in the order first seen.
type callIndex struct {
	byKey map[string]int
	buf   []byte // the key being looked up: a string is made only for a new call
	// last and lastKey are a call looked up lately and its key: a response's blocks are consecutive
	// lines, so the line before's call is tried before the map.
	last    int
	lastKey string
}

func newCallIndex() callIndex { return callIndex{byKey: make(map[string]int)} }

// call is the number of the call an assistant line belongs to and, for the line that is its first, its
// key, as the session records name it (Call.Key); "" for a call seen before.
func (x *callIndex) call(messageID, requestID, uuid string) (i int, key string) {
	x.buf = append(append(append(x.buf[:0], messageID...), 0), requestID...)
	if messageID == "" {
		x.buf = append(append(x.buf[:0], "uuid\x00"...), uuid...)
	}
	if x.lastKey == string(x.buf) {
		return x.last, ""
	}
	if i, seen := x.byKey[string(x.buf)]; seen {
		return i, "" // the line before's call stays the one tried first: no string is made for this one
	}
	key = string(x.buf)
	return x.hold(key), key
}

// hold numbers key as the next call: a new one, or, for a read that begins where another ended, the call
// that one ended on.
func (x *callIndex) hold(key string) int {
	x.last, x.lastKey = len(x.byKey), key
	x.byKey[key] = x.last
	return x.last
}

// reset forgets every call, keeping the map's room (or, past bound entries, giving it up).
func (x *callIndex) reset(bound int) {
	if len(x.byKey) > bound {
		x.byKey = make(map[string]int)
	} else {
		clear(x.byKey)
	}
	x.last, x.lastKey = 0, ""
}
