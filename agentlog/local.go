package agentlog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	json "github.com/segmentio/encoding/json"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/prices"
)

// Local says where one machine's session history is: the agents' own logs, the daemon's sessions log
// and its forks log. `saverd impact` without --sessions and the impact methods without params.sessions
// read the same.
type Local struct {
	// Discover lists the agent logs to read: every harness's (harness/all), or those a person named.
	Discover func() ([]File, []string)
	Prices   *prices.Table // nil: the embedded table
	Cache    *Cache        // nil: every log is read (ScanOptions.Cache)
	// SessionsLog is the daemon's sessions log (paths.SessionsLog); "" reads none.
	SessionsLog string
	// ForksLog is the socket daemon's forks log (paths.ForksLog); "" reads none.
	ForksLog string
	// Done, when set, is called after each agent log is read, with its size: a progress bar's feed.
	Done func(size int64)
	// Files, when set, is called with the agent logs found, before they are read.
	Files func([]File)
}

// ReadLocal reads the sessions of the agents' logs and of the daemon's sessions log (which repeats what
// it read from them: those repeats are not duplicates, impact keeps one) as impact's input records.
// What cannot be read is a warning; only a cancelled ctx is an error.
func ReadLocal(ctx context.Context, l Local) ([]json.RawMessage, []string, error) {
	var (
		files []File
		warn  []string
	)
	if l.Discover != nil {
		files, warn = l.Discover()
	}
	if l.Files != nil {
		l.Files(files)
	}
	var forks map[string]ForkRecord
	if l.ForksLog != "" {
		f, w := ReadForks(l.ForksLog)
		forks, warn = f, append(warn, w...)
	}
	recs, w := Scan(ctx, files, ScanOptions{Options: Options{Prices: l.Prices}, Forks: forks, Done: l.Done, Cache: l.Cache})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	warn = append(warn, w...)
	var found []json.RawMessage
	for i := range recs {
		raw, err := json.Marshal(&recs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("session %s: %w", recs[i].SessionID, err)
		}
		found = append(found, raw)
	}
	if l.SessionsLog != "" {
		daemon, w := DaemonRecords(l.SessionsLog)
		found, warn = append(found, daemon...), append(warn, w...)
	}
	if len(found) == 0 {
		warn = append(warn, "no agent sessions found: no agent's logs, no daemon sessions log (see --claude-dir, --codex-dir, --gemini-dir, --opencode-dir, --qwen-dir, --sessions)")
	}
	return found, warn, nil
}

// ForkRecord is one line of the forks log: a fork saverd ran itself (a judge or process run through a
// client, `saverd audit --judge`), so the session readers count its spend as the judged session's judge
// spend, never as a session of its own, and impact never links a commit to it.
type ForkRecord struct {
	SessionID string `json:"session_id"` // the fork's own id: claude -p's session_id, codex exec's thread_id
	Parent    string `json:"parent"`
	Harness   string `json:"harness"`
	Purpose   string `json:"purpose"`
	At        string `json:"at"` // RFC 3339: when the fork answered; its tokens are priced at this time
	// Model is the model the fork ran on, "" when the client did not say.
	Model string `json:"model,omitempty"`
	// Tokens is what the fork's own requests used, as its client reported them (claude -p's usage,
	// codex exec's turn.completed): never a figure cumulative over a resumed transcript. A fork whose
	// own log is read (a --fork-session transcript) is counted from that log instead; an --ephemeral
	// Codex fork leaves none, and is counted from these. Nil on lines written before they were kept.
	Tokens *Tokens `json:"tokens,omitempty"`
	// CostUSD is kept for the lines of older daemons, which wrote the client's own cumulative figure
	// there; it is read by nothing: a fork is priced from its tokens.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// ReadForks reads the forks log: fork session id → its record (the last line of an id wins). No log
// is no forks; a bad line is a warning.
func ReadForks(path string) (map[string]ForkRecord, []string) {
	data, err := safefile.Read(path, 64<<20)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("forks log %s: %v", path, err)}
	}
	forks := map[string]ForkRecord{}
	var warn []string
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var f ForkRecord
		if err := json.Unmarshal(line, &f); err != nil || f.SessionID == "" || f.Parent == "" || f.SessionID == f.Parent {
			warn = append(warn, fmt.Sprintf("%s:%d: not a fork record, skipped", path, i+1))
			continue
		}
		forks[f.SessionID] = f
	}
	return forks, warn
}

// ReadSession reads the session id from its log files (the session's own first, then any fork's log a
// harness keeps beside it), with the spend of the forks saverd ran for it as its judge spend, counted as
// Scan counts them: a fork whose own log is among files from its calls (its copied calls counted once, in
// the session), any other from the tokens its forks-log line records. A harness package's Session reads
// through it; the daemon appends what this reads to its sessions log.
func ReadSession(id string, files []File, forks map[string]ForkRecord, opt Options) (Record, []string, error) {
	recs, warn := Scan(context.Background(), files, ScanOptions{Options: opt, Forks: forks, Workers: 1})
	for _, r := range recs {
		if r.SessionID == id {
			return r, warn, nil
		}
	}
	path := ""
	if len(files) > 0 {
		path = files[0].Path
	}
	return Record{}, warn, fmt.Errorf("%s: no session read from it: %s", path, strings.Join(warn, "; "))
}

// ForksOf is the forks of one session among forks.
func ForksOf(forks map[string]ForkRecord, parent string) map[string]ForkRecord {
	out := map[string]ForkRecord{}
	for id, f := range forks {
		if f.Parent == parent {
			out[id] = f
		}
	}
	return out
}

// DaemonRecords reads the daemon's sessions log: one record each time a session ended, so a session
// resumed and ended again has several, and its last covers all of it. The last record of each session
// is kept, in the order sessions first appear; a missing log is no sessions.
func DaemonRecords(path string) ([]json.RawMessage, []string) {
	f, err := safefile.Open(path) // a regular file only: a FIFO there would hang the report
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("daemon sessions log %s: %v", path, err)}
	}
	defer f.Close()
	var (
		out  []json.RawMessage
		warn []string
		at   = map[string]int{}
	)
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		raw, tooLong, err := safefile.ReadLine(r, 4<<20)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				warn = append(warn, fmt.Sprintf("daemon sessions log %s: %v (read up to there)", path, err))
			}
			break
		}
		if tooLong {
			warn = append(warn, fmt.Sprintf("%s:%d: a line over 4 MiB, skipped", path, n))
			continue
		}
		var head struct {
			SessionID string `json:"session_id"`
		}
		line := append(json.RawMessage(nil), raw...)
		if err := json.Unmarshal(line, &head); err != nil || head.SessionID == "" {
			warn = append(warn, fmt.Sprintf("%s:%d: not a session record, skipped", path, n))
			continue
		}
		if i, ok := at[head.SessionID]; ok {
			out[i] = line
			continue
		}
		at[head.SessionID] = len(out)
		out = append(out, line)
	}
	return out, warn
}
