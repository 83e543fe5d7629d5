package qwen

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/prices"
)

// line is what the record reader needs of a chat record; everything else (texts, tool outputs, telemetry
// payloads) is skipped unread.
type line struct {
	UUID      string `json:"uuid"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Cwd       string `json:"cwd"`
	Model     string `json:"model"`
	Message   struct {
		Parts []part `json:"parts"`
	} `json:"message"`
	Usage *usage `json:"usageMetadata"`
}

// part is a part of a message; a call's part names the function it calls.
type part struct {
	Call *call `json:"functionCall"`
}

type call struct {
	Name string `json:"name"`
}

// usage is a call's usageMetadata, the API's counts as Qwen Code's OpenAI client maps them: the prompt
// includes its cached part; candidates include the reasoning (thoughts) for an OpenAI-compatible model,
// and total says so (prompt + candidates); a total that also adds the thoughts counts them apart.
type usage struct {
	Prompt     int64 `json:"promptTokenCount"`
	Candidates int64 `json:"candidatesTokenCount"`
	Thoughts   int64 `json:"thoughtsTokenCount"`
	Cached     int64 `json:"cachedContentTokenCount"`
	Total      int64 `json:"totalTokenCount"`
}

func (u *usage) usage() prices.Usage {
	out := u.Candidates
	if u.Thoughts > 0 && u.Total == u.Prompt+u.Candidates+u.Thoughts {
		out += u.Thoughts
	}
	return prices.Usage{Input: max(0, u.Prompt-u.Cached), CacheRead: u.Cached, Output: out}
}

// reader is the agentlog.Reader of Qwen Code's files. usage caches each directory's usage_record.jsonl
// (the last line per session), read once for the chat logs it checks.
type reader struct{ usage *sync.Map }

// ReadFile reads a chat log, or usage_record.jsonl for the sessions with no chat log.
func (r reader) ReadFile(f agentlog.File, opt agentlog.Options) ([]agentlog.Record, error) {
	dir := filepath.Dir(f.Path)
	if filepath.Base(f.Path) == usageRecord {
		return r.unrecorded(dir, opt)
	}
	rec, err := readChat(f.Path, opt)
	if err != nil {
		return nil, err
	}
	if last, ok := r.totals(qwenDirOf(f.Path))[rec.SessionID]; ok {
		if w := last.check(&rec); w != "" {
			rec.Warnings = append(rec.Warnings, w)
		}
	}
	return []agentlog.Record{rec}, nil
}

// qwenDirOf is the Qwen Code directory of a chat log: <dir>/projects/<cwd>/chats/<session>.jsonl.
func qwenDirOf(chat string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(chat))))
}

// readChat reads one chat log: its session's calls, each assistant record with usageMetadata once (a
// record written again keeps its last copy), with the tools it asked for.
func readChat(path string, opt agentlog.Options) (agentlog.Record, error) {
	lines, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return agentlog.Record{}, err
	}
	defer closeFn()
	rec := agentlog.Record{SessionID: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Harness: string(harness.Qwen), Files: []string{path}}
	calls := map[string]agentlog.Call{}
	var order []string
	var fast fastLine
	var l line // one for every record: a line apiece was a quarter of the reader's allocation
	lines.Each(func(raw []byte) {
		if !decodeAll && rec.Cwd != "" && passOver(raw, &rec) {
			return
		}
		l = line{}
		if decodeAll || !fast.read(raw, &l) {
			l = line{}
			if err := json.Unmarshal(raw, &l); err != nil {
				lines.Malformed(err)
				return
			}
		}
		at, err := time.Parse(time.RFC3339Nano, l.Timestamp)
		if err == nil {
			span(&rec, at)
		}
		if l.SessionID != "" {
			rec.SessionID = l.SessionID
		}
		if rec.Cwd == "" {
			rec.Cwd = l.Cwd
		}
		if l.Type != "assistant" || l.Usage == nil {
			return
		}
		c := agentlog.Call{Key: "qwen-code\x00" + l.UUID, Owner: l.SessionID, Model: l.Model, At: at, Usage: l.Usage.usage()}
		for _, p := range l.Message.Parts {
			if p.Call != nil {
				c.Tools = append(c.Tools, p.Call.Name)
			}
		}
		if _, seen := calls[l.UUID]; !seen || l.UUID == "" {
			order = append(order, l.UUID)
		}
		calls[l.UUID] = c
	})
	out := make([]agentlog.Call, 0, len(order)) // sized once: grown call by call, it was a third of the reader's allocation
	for _, id := range order {
		out = append(out, calls[id])
	}
	rec.SetCalls(out)
	rec.Warnings = lines.Warnings()
	rec.Finish(opt)
	return rec, nil
}

// decodeAll sends every record through the decoder, past the quick pass and the one-pass reader: the
// tests compare the two ways of reading.
var decodeAll = false

// span widens the record's start and end to at.
func span(rec *agentlog.Record, at time.Time) {
	if rec.Start.IsZero() || at.Before(rec.Start) {
		rec.Start = at
	}
	if at.After(rec.End) {
		rec.End = at
	}
}

var (
	typeKey = []byte(`"type"`)
	timeKey = []byte(`"timestamp"`)
)

// passOver takes a record the record reader has no use for but its time — a prompt, a tool's result,
// telemetry: most of a log's bytes — by its envelope's type and timestamp, which Qwen Code writes before
// the record's content; anything else, or laid out otherwise, is left to the decoder (false).
func passOver(raw []byte, rec *agentlog.Record) bool {
	typ, ok := agentlog.FieldBytes(raw, typeKey)
	if !ok || string(typ) == "assistant" {
		return false
	}
	ts, ok := agentlog.StringField(raw, timeKey)
	if !ok {
		return false
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return false
	}
	span(rec, at)
	return true
}

// usageLine is one line of usage_record.jsonl: one run's running totals of its session (a resumed
// session's next run starts from the last), in milliseconds since the epoch.
type usageLine struct {
	SessionID string                `json:"sessionId"`
	Timestamp int64                 `json:"timestamp"`
	StartTime int64                 `json:"startTime"`
	Project   string                `json:"project"`
	Models    map[string]modelTotal `json:"models"`
	Tools     struct {
		ByName map[string]struct {
			Count int `json:"count"`
		} `json:"byName"`
	} `json:"tools"`
	first int64 // the session's earliest startTime over its lines
}

type modelTotal struct {
	Requests int   `json:"requests"`
	Input    int64 `json:"inputTokens"`
	Output   int64 `json:"outputTokens"`
	Cached   int64 `json:"cachedTokens"`
}

// totals is the last line per session of dir's usage_record.jsonl, read once per Discover.
func (r reader) totals(dir string) map[string]*usageLine {
	if r.usage == nil {
		return nil
	}
	if v, ok := r.usage.Load(dir); ok {
		return v.(map[string]*usageLine)
	}
	last, _ := readTotals(filepath.Join(dir, usageRecord), agentlog.Options{})
	r.usage.Store(dir, last)
	return last
}

func readTotals(path string, opt agentlog.Options) (map[string]*usageLine, []string) {
	lines, closeFn, err := agentlog.OpenLines(path, opt)
	if err != nil {
		return nil, []string{err.Error()}
	}
	defer closeFn()
	last := map[string]*usageLine{}
	lines.Each(func(raw []byte) {
		var u usageLine
		if err := json.Unmarshal(raw, &u); err != nil || u.SessionID == "" {
			if err == nil {
				err = fmt.Errorf("no sessionId")
			}
			lines.Malformed(err)
			return
		}
		u.first = u.StartTime
		if prev := last[u.SessionID]; prev != nil && prev.first < u.first {
			u.first = prev.first
		}
		last[u.SessionID] = &u // running totals: the last line holds the session, never a sum of lines
	})
	return last, lines.Warnings()
}

// check compares the running totals with the chat log's sum; a difference is a warning (a run whose chat
// was not recorded, a log cut short).
func (u *usageLine) check(rec *agentlog.Record) string {
	var calls int
	var prompt, out, cached int64
	for _, m := range u.Models {
		calls += m.Requests
		prompt += m.Input
		out += m.Output
		cached += m.Cached
	}
	t := rec.Tokens
	if calls == rec.Calls && prompt == t.Input+t.CacheRead && cached == t.CacheRead && out == t.Output {
		return ""
	}
	return fmt.Sprintf("session %s: usage_record.jsonl's running total (%d calls, %d prompt and %d output tokens) differs from its chat log's (%d calls, %d and %d): a run whose chat was not recorded?",
		rec.SessionID, calls, prompt, out, rec.Calls, t.Input+t.CacheRead, t.Output)
}

// unrecorded is a record for each session usage_record.jsonl names that has no chat log under dir (chat
// recording off): its last running total, one call per model for the model's requests, dated at the
// line's time. Its tokens are exact; its calls are counted, not listed.
func (r reader) unrecorded(dir string, opt agentlog.Options) ([]agentlog.Record, error) {
	last, warn := readTotals(filepath.Join(dir, usageRecord), opt)
	chats, _ := filepath.Glob(filepath.Join(dir, "projects", "*", "chats", "*.jsonl"))
	recorded := make(map[string]bool, len(chats))
	for _, c := range chats {
		recorded[strings.TrimSuffix(filepath.Base(c), ".jsonl")] = true
	}
	var out []agentlog.Record
	for id, u := range last {
		if !recorded[id] {
			out = append(out, u.record(dir, opt))
		}
	}
	if len(out) > 0 {
		out[0].Warnings = append(out[0].Warnings, warn...)
	}
	slices.SortFunc(out, func(a, b agentlog.Record) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out, nil
}

func (u *usageLine) record(dir string, opt agentlog.Options) agentlog.Record {
	at := time.UnixMilli(u.Timestamp).UTC()
	rec := agentlog.Record{SessionID: u.SessionID, Harness: string(harness.Qwen), Cwd: u.Project,
		Start: time.UnixMilli(u.first).UTC(), End: at, Files: []string{filepath.Join(dir, usageRecord)}}
	var tools []string
	for name, t := range u.Tools.ByName {
		for range t.Count {
			tools = append(tools, name)
		}
	}
	slices.Sort(tools)
	models := make([]string, 0, len(u.Models))
	for m := range u.Models {
		models = append(models, m)
	}
	slices.Sort(models)
	for i, m := range models {
		t := u.Models[m]
		c := agentlog.Call{Key: "qwen-code\x00usage\x00" + u.SessionID + "\x00" + m, Owner: u.SessionID, Model: m, At: at,
			Usage: prices.Usage{Input: max(0, t.Input-t.Cached), CacheRead: t.Cached, Output: t.Output}}
		if i == 0 {
			c.Tools = tools
		}
		rec.AddCall(c)
	}
	rec.Finish(opt)
	rec.Calls = 0
	for _, t := range u.Models {
		rec.Calls += t.Requests
	}
	for m, use := range rec.Models {
		use.Calls = u.Models[m].Requests
	}
	rec.Warnings = append(rec.Warnings, fmt.Sprintf("session %s: no chat log, only usage_record.jsonl's running total (%d calls, priced at %s)",
		u.SessionID, rec.Calls, at.Format(time.RFC3339)))
	return rec
}
