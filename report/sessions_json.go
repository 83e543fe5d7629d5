package report

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// appendRecordJSON appends r as encoding/json writes it without indent or HTML escaping, and true; false
// (b as it was) when r holds what it leaves to encoding/json: a string that JSON escapes (anything but
// printable ASCII without quotes and backslashes), a float that is not finite, a time RFC 3339 cannot
// write. encoding/json's reflection, map sorting and time formatting were three quarters of the report's
// time: 5,000 sessions took ~30 ms of one core after the reading. TestRecordJSONIsEncodingJSON and
// FuzzRecordJSON hold it to encoding/json; TestRecordJSONKnowsEveryField fails when the record's shape
// changes, so that this is changed with it.
func appendRecordJSON(b []byte, r *agentlog.Record) ([]byte, bool) {
	start := len(b)
	j := jsonOut{b: b, ok: true}
	var room [16]string
	j.raw(`{"session_id":`)
	j.str(r.SessionID)
	j.raw(`,"harness":`)
	j.str(r.Harness)
	j.raw(`,"repo":`)
	j.optStr(r.Repo)
	j.raw(`,"project":`)
	j.optStr(r.Project)
	if r.Cwd != "" {
		j.raw(`,"cwd":`)
		j.str(r.Cwd)
	}
	j.raw(`,"start":`)
	j.time(r.Start)
	j.raw(`,"end":`)
	j.time(r.End)
	j.raw(`,"calls":`)
	j.int(int64(r.Calls))
	j.raw(`,"tools":`)
	sortedObject(&j, room[:], r.Tools, func(n int) { j.int(int64(n)) })
	j.raw(`,"cost":{"total":`)
	j.optFloat(r.Cost.Total)
	j.raw(`,"priced":`)
	j.float(r.Cost.Priced)
	if len(r.Cost.Unpriced) > 0 {
		j.raw(`,"unpriced_models":`)
		j.strs(r.Cost.Unpriced)
	}
	j.raw(`,"unpriced_tokens":`)
	j.int(r.Cost.UnpricedTokens)
	if r.Cost.Harness != nil {
		j.raw(`,"harness":`)
		j.float(*r.Cost.Harness)
	}
	j.raw(`},"tokens":`)
	j.tokens(r.Tokens)
	j.raw(`,"models":`)
	sortedObject(&j, room[:], r.Models, func(m *agentlog.ModelUse) {
		if m == nil {
			j.raw("null")
			return
		}
		j.raw(`{"calls":`)
		j.spend(m.Calls, m.Tokens, m.Cost)
	})
	if f := r.Judge; f != nil {
		j.raw(`,"judge":{"forks":`)
		j.int(int64(f.Forks))
		j.raw(`,"calls":`)
		j.spend(f.Calls, f.Tokens, f.Cost)
	}
	if len(r.Files) > 0 {
		j.raw(`,"files":`)
		j.strs(r.Files)
	}
	if r.Unlogged != "" {
		j.raw(`,"unlogged_calls":`)
		j.str(r.Unlogged)
	}
	if r.Saver != nil {
		j.ok = false // only the daemon's records carry it, never one read from the logs: left to encoding/json
	}
	j.b = append(j.b, '}')
	if !j.ok {
		return j.b[:start], false
	}
	return j.b, true
}

// jsonOut appends JSON values; ok turns false at the first one it leaves to encoding/json.
type jsonOut struct {
	b  []byte
	ok bool
}

func (j *jsonOut) raw(s string) { j.b = append(j.b, s...) }

// str appends s quoted, when it needs no escape.
func (j *jsonOut) str(s string) {
	for i := 0; i < len(s); i++ {
		if !plainJSON[s[i]] {
			j.ok = false
			return
		}
	}
	j.b = append(j.b, '"')
	j.b = append(j.b, s...)
	j.b = append(j.b, '"')
}

// plainJSON marks the bytes a JSON string holds as they are, of those str writes: printable ASCII but
// the quote and the backslash.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (j *jsonOut) optStr(s *string) {
	if s == nil {
		j.raw("null")
		return
	}
	j.str(*s)
}

func (j *jsonOut) int(n int64) { j.b = strconv.AppendInt(j.b, n, 10) }

// float appends f as encoding/json's float encoder does (ES6 number to string: %g with other exponent
// cutoffs, the exponent unpadded).
func (j *jsonOut) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		j.ok = false
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	j.b = strconv.AppendFloat(j.b, f, format, -1, 64)
	if n := len(j.b); format == 'e' && n >= 4 && j.b[n-4] == 'e' && j.b[n-3] == '-' && j.b[n-2] == '0' {
		j.b[n-2] = j.b[n-1] // e-09 to e-9
		j.b = j.b[:n-1]
	}
}

func (j *jsonOut) optFloat(f *float64) {
	if f == nil {
		j.raw("null")
		return
	}
	j.float(*f)
}

// time appends t as its MarshalJSON writes it: its text (RFC 3339, checked as MarshalJSON checks it), quoted.
func (j *jsonOut) time(t time.Time) {
	j.b = append(j.b, '"')
	b, err := t.AppendText(j.b)
	if err != nil {
		j.ok = false
		return
	}
	j.b = append(b, '"')
}

func (j *jsonOut) tokens(t agentlog.Tokens) {
	j.raw(`{"input":`)
	j.int(t.Input)
	j.raw(`,"output":`)
	j.int(t.Output)
	j.raw(`,"cache_read":`)
	j.int(t.CacheRead)
	j.raw(`,"cache_write":`)
	j.int(t.CacheWrite)
	j.b = append(j.b, '}')
}

// strs writes a list of strings (never nil: the callers write a list only when it has members).
func (j *jsonOut) strs(list []string) {
	j.b = append(j.b, '[')
	for i, s := range list {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.str(s)
	}
	j.b = append(j.b, ']')
}

// spend writes the rest of a model's or the judge's object from its calls on: the calls, the tokens and
// the cost, and the closing brace.
func (j *jsonOut) spend(calls int, t agentlog.Tokens, cost *float64) {
	j.int(int64(calls))
	j.raw(`,"tokens":`)
	j.tokens(t)
	j.raw(`,"cost":`)
	j.optFloat(cost)
	j.b = append(j.b, '}')
}

// sortedObject writes m as encoding/json writes a map: null when nil, else its names sorted, each value by
// put.
func sortedObject[V any](j *jsonOut, room []string, m map[string]V, put func(V)) {
	if m == nil {
		j.raw("null")
		return
	}
	j.b = append(j.b, '{')
	for i, k := range sortedKeys(room, m) {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.str(k)
		j.b = append(j.b, ':')
		put(m[k])
	}
	j.b = append(j.b, '}')
}

// sortedKeys is m's keys in encoding/json's order (byte-wise), in room (a session's few tools and
// models fit the caller's array).
func sortedKeys[V any](room []string, m map[string]V) []string {
	keys := room[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
