package agentlog

import (
	"bytes"
	"time"

	"github.com/saverd/saverd/prices"
)

// What a harness package (harness/claude, harness/codex, harness/gemini, …) builds its readers on: the
// record's calls, its finish (repository, prices, warnings), the walk of a log directory, the bounded line
// reader and the audit's history.

// Reader reads one File of a harness package into the records of the sessions it holds (an OpenCode
// database holds many; a Gemini CLI session may span several files, found beside the one listed). A bad
// line is a warning in the record it belongs to; only a File that cannot be read at all is an error. A
// Reader is a comparable value (File is compared in tests): a struct, not a func.
type Reader interface {
	ReadFile(f File, opt Options) ([]Record, error)
}

// SessionReader is a Reader whose every file is one session (Claude Code's transcripts, Codex's
// rollouts): Scan reads such a file into its place among the records, so thousands of them make no list
// each. A file with no dated line is an error naming it (NoDatedLine), not a record.
type SessionReader interface {
	Reader
	ReadSession(f File, opt Options) (Record, error)
}

// Call is one API call a harness package's reader found in its log.
type Call struct {
	// Key names the call among every log Scan reads: a call two logs copy (a fork's history) has one key
	// and one time, and counts once; two distinct calls never share both. Prefix it with the harness id.
	Key string
	// Owner is the session that wrote the call, as its log line names it, when it names one: a copy in a
	// fork's log names the session it was copied from, where the harness says so.
	Owner string
	Model string
	At    time.Time
	// Usage is what the call was billed, in prices.Usage's meanings (input not read from cache, cache
	// reads, cache writes, output with reasoning).
	Usage prices.Usage
	// Tools are the tools the call asked for, by name.
	Tools []string
}

// AddCall adds one API call to the record; Finish sums them.
func (r *Record) AddCall(c Call) { r.calls = append(r.calls, c) }

// SetCalls makes calls the record's calls, in place of any added; the record keeps the slice.
func (r *Record) SetCalls(calls []Call) { r.calls = calls }

// Began notes the time of a dated line of the session's log, read in the order the log was written: the
// first one noted is when the log began. A --fork-session transcript begins when it was forked, before the
// lines it copies from its parent with their own (earlier) times, so when the copies do not name their
// writer, the log that began first is the one that wrote them (ownerOf). A reader that never notes one
// leaves Start in its place.
func (r *Record) Began(at time.Time) {
	if r.began.IsZero() {
		r.began = at
	}
}

// beganAt is the time the session's log began: Began's, else Start.
func (r *Record) beganAt() time.Time {
	if r.began.IsZero() {
		return r.Start
	}
	return r.began
}

// Finish fills what the record's calls give (calls, tools, tokens, models, cost at opt's prices), its
// repository from Cwd, and a warning per model with no price. A harness package's reader calls it once,
// when the record's calls are all added.
func (r *Record) Finish(opt Options) {
	r.placeRepo(opt.tops)
	r.finish(opt.Table())
	r.unpricedWarnings()
}

// Lines reads one log line by line with the bounds every reader here keeps: a line over Options.MaxLine is
// reported and skipped (never held), a binary file is refused, a malformed or truncated last line is
// named with its file and line number, and past five of them the rest are counted.
type Lines struct{ lr *lineReader }

// OpenLines opens path for Lines within opt's bounds (safefile: regular files only, a size, an inflated
// size for a .zst, a deadline), through a zstd decoder when the name ends in .zst; close releases it.
func OpenLines(path string, opt Options) (*Lines, func(), error) {
	lr, closeFn, err := openLog(path, opt)
	if err != nil {
		return nil, nil, err
	}
	return &Lines{lr: lr}, closeFn, nil
}

// Each hands every non-blank line to fn, to the end of the file; the slice is valid only during the call.
// A read error is a warning and ends the file there.
func (l *Lines) Each(fn func(line []byte)) { l.lr.each(fn) }

// Read is Each, and the error of a file its limits cut short (its deadline, its inflated size): such a
// file is no file at all, and its reader drops what it read of it.
func (l *Lines) Read(fn func(line []byte)) error { return l.lr.each(fn) }

// Malformed reports the line just handed out as not the JSON it should be.
func (l *Lines) Malformed(err error) { l.lr.malformed(err) }

// Warnings is everything reading the file reported.
func (l *Lines) Warnings() []string { return l.lr.warnings() }

// StringField is the value of the first `"key": "value"` in a line, read without decoding it (key is
// given quoted: []byte(`"type"`)); false when the key is absent, its value no plain string, or holds an
// escape. A reader uses it to pass over the lines it has no use for (a tool's output, a snapshot) by
// their type and time, as Codex's reader does, and leaves every other line to the decoder.
func StringField(line, quotedKey []byte) (string, bool) {
	v, ok := FieldBytes(line, quotedKey)
	return string(v), ok
}

// FieldBytes is StringField's value in place, in line: a reader that only compares it, or copies what it
// keeps, spends no allocation on each line it passes over.
func FieldBytes(line, quotedKey []byte) ([]byte, bool) {
	i := bytes.Index(line, quotedKey)
	if i < 0 {
		return nil, false
	}
	return valueAt(line[i+len(quotedKey):])
}

// TrimBlanks is b without the spaces and tabs it starts with (bytes.TrimLeft builds its set of bytes
// on every call, a tenth of a quick pass).
func TrimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// valueAt reads `: "<value>"` (blanks allowed) at the start of b; a value with an escape is refused.
func valueAt(b []byte) ([]byte, bool) {
	b = TrimBlanks(b)
	if len(b) == 0 || b[0] != ':' {
		return nil, false
	}
	b = TrimBlanks(b[1:])
	if len(b) == 0 || b[0] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 || bytes.IndexByte(b[1:1+end], '\\') >= 0 {
		return nil, false
	}
	return b[1 : 1+end], true
}
