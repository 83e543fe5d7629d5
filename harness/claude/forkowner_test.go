package claude

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
)

// The fork-2.1.328 fixture: a session of Claude Code 2.1.328 (30 calls, four habit turns and more) and the
// transcript of the first judge fork saverd ran of it through claude -p --fork-session (18 calls copied,
// one of its own), trimmed of their contents; billed.jsonl is what the scripted API billed for each call.
const (
	forkFixture = "testdata/fork-2.1.328"
	forkParent  = "a568f30b-139e-414f-9b08-3e9a1bd8dfe1"
	forkChild   = "7c288622-c6e4-4ee2-a073-4bf9cb5f88e3" // sorts before the parent
	forkProject = "-home-dev-src-proj"
)

// billedCall is one line of billed.jsonl.
type billedCall struct {
	Session string `json:"session"`
	MsgID   string `json:"msg_id"`
	Usage   struct {
		Input      int64 `json:"input_tokens"`
		Output     int64 `json:"output_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// opusCost is a call's price at claude-opus-5-5's $4 input, $20 output, $0.20 cache read and $5 cache
// write (5 minutes) a million, written out here rather than asked of the prices package.
func opusCost(b billedCall) float64 {
	u := b.Usage
	return (float64(u.Input)*4 + float64(u.Output)*20 + float64(u.CacheRead)*0.2 + float64(u.CacheWrite)*5) / 1e6
}

// transcriptCalls is the distinct message ids of a transcript's assistant lines with a usage, read with
// encoding/json alone.
func transcriptCalls(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Type    string `json:"type"`
			Message struct {
				ID    string          `json:"id"`
				Usage json.RawMessage `json:"usage"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "assistant" && len(l.Message.Usage) > 0 {
			ids[l.Message.ID] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestForkNeverOwnsItsParentsCalls: a --fork-session transcript of Claude Code 2.1.328 names the fork in
// every copied line's sessionId; the copied calls stay the parent's whether the fork's id sorts before or
// after the parent's, whether saverd ran the fork (its forks log names it) or a person did, and whether or
// not the copies name their writer. The parent's calls and cost are what the API billed it, recomputed
// here from the billing and the transcripts, not from saverd.
func TestForkNeverOwnsItsParentsCalls(t *testing.T) {
	// What the API billed, by session: the parent's are the calls of its transcript, the fork's own
	// call is the one only the fork's transcript holds.
	var billed []billedCall
	data, err := os.ReadFile(filepath.Join(forkFixture, "billed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var b billedCall
		if err := json.Unmarshal([]byte(line), &b); err != nil {
			t.Fatal(err)
		}
		billed = append(billed, b)
	}
	proj := filepath.Join(forkFixture, "projects", forkProject)
	inParent := transcriptCalls(t, filepath.Join(proj, forkParent+".jsonl"))
	inFork := transcriptCalls(t, filepath.Join(proj, forkChild+".jsonl"))
	var parentCalls, forkCalls, copied int
	var parentUSD, forkUSD float64
	for _, b := range billed {
		switch {
		case inParent[b.MsgID] && b.Session == forkParent:
			parentCalls++
			parentUSD += opusCost(b)
			if inFork[b.MsgID] {
				copied++
			}
		case inFork[b.MsgID] && b.Session == forkChild:
			forkCalls++
			forkUSD += opusCost(b)
		default:
			t.Fatalf("billed call %s of %s is in neither transcript as its session's", b.MsgID, b.Session)
		}
	}
	if parentCalls != 30 || forkCalls != 1 || copied != 18 {
		t.Fatalf("fixture: parent %d calls, fork %d of its own and %d copied; want 30, 1, 18", parentCalls, forkCalls, copied)
	}

	requestSession := regexp.MustCompile(`,"requestSessionId":"[^"]*"`)
	for _, tc := range []struct {
		name string
		// forkID is the fork's session id in this case; edit changes each of the fork's lines.
		forkID string
		edit   func(line string) (string, bool)
		// saverd: the forks log names the fork as a judge fork of the parent.
		saverd bool
	}{
		{name: "as written, the fork's id sorting first", forkID: forkChild},
		{name: "the fork's id sorting last", forkID: "f7c28622-c6e4-4ee2-a073-4bf9cb5f88e3"},
		{name: "saverd's fork", forkID: forkChild, saverd: true},
		{name: "saverd's fork sorting last", forkID: "f7c28622-c6e4-4ee2-a073-4bf9cb5f88e3", saverd: true},
		// A fork whose copies do not name their writer: its log began when it was forked, after the lines
		// it copied.
		{name: "copies naming no writer", forkID: "00000000-c6e4-4ee2-a073-4bf9cb5f88e3",
			edit: func(l string) (string, bool) { return requestSession.ReplaceAllString(l, ""), true }},
		// Nor does the log say when it began (the copies come first): saverd's forks log still knows it.
		{name: "saverd's fork, nothing in the lines", forkID: "00000000-c6e4-4ee2-a073-4bf9cb5f88e3", saverd: true,
			edit: func(l string) (string, bool) {
				return requestSession.ReplaceAllString(l, ""), !strings.Contains(l, `"queue-operation"`)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dst := filepath.Join(dir, "projects", forkProject)
			if err := os.MkdirAll(dst, 0o700); err != nil {
				t.Fatal(err)
			}
			copyTo := func(src, dstName string, edit func(string) (string, bool)) {
				data, err := os.ReadFile(filepath.Join(proj, src+".jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
					l = strings.ReplaceAll(l, forkChild, tc.forkID)
					if edit != nil {
						var keep bool
						if l, keep = edit(l); !keep {
							continue
						}
					}
					out = append(out, l)
				}
				if err := os.WriteFile(filepath.Join(dst, dstName+".jsonl"), []byte(strings.Join(out, "\n")+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			copyTo(forkParent, forkParent, nil)
			copyTo(forkChild, tc.forkID, tc.edit)
			opt := agentlog.ScanOptions{}
			if tc.saverd {
				opt.Forks = map[string]agentlog.ForkRecord{tc.forkID: {SessionID: tc.forkID, Parent: forkParent, Harness: "claude-code", Purpose: "judge"}}
			}
			files, _ := Harness{}.Discover([]string{dir})
			recs, warn := agentlog.Scan(context.Background(), files, opt)
			byID := map[string]agentlog.Record{}
			for _, r := range recs {
				byID[r.SessionID] = r
			}
			p, ok := byID[forkParent]
			if !ok {
				t.Fatalf("no record of the parent among %d", len(recs))
			}
			if p.Calls != parentCalls || p.Cost.Total == nil || math.Abs(*p.Cost.Total-parentUSD) > 1e-9 {
				t.Errorf("parent: %d calls, cost %v; billed %d calls, $%.7f", p.Calls, p.Cost.Total, parentCalls, parentUSD)
			}
			var forkGot *agentlog.ForkSpend
			if tc.saverd {
				if len(recs) != 1 {
					t.Errorf("%d records: saverd's fork is no session of its own", len(recs))
				}
				forkGot = p.Judge
			} else if f, ok := byID[tc.forkID]; ok {
				forkGot = &agentlog.ForkSpend{Forks: 1, Calls: f.Calls, Cost: f.Cost.Total}
			}
			if forkGot == nil || forkGot.Forks != 1 || forkGot.Calls != forkCalls || forkGot.Cost == nil || math.Abs(*forkGot.Cost-forkUSD) > 1e-9 {
				t.Errorf("fork: %+v; billed %d call, $%.7f", forkGot, forkCalls, forkUSD)
			}
			repeats := "session " + tc.forkID + " repeats 18 calls of session " + forkParent
			if hasWarning(warn, repeats) == tc.saverd {
				t.Errorf("warnings %q: want %q only when a person forked", warn, repeats)
			}
			if hasWarning(warn, "subagent transcript missing") {
				t.Errorf("warnings %q: the fork's cost-state counts its own call, as saverd does", warn)
			}
			if !tc.saverd {
				return
			}
			// The daemon's SessionEnd record reads the session with its forks the same way.
			rec, _, err := Harness{}.Record(filepath.Join(dst, forkParent+".jsonl"), opt.Forks, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Calls != parentCalls || rec.Cost.Total == nil || math.Abs(*rec.Cost.Total-parentUSD) > 1e-9 ||
				rec.Judge == nil || rec.Judge.Calls != forkCalls || rec.Judge.Cost == nil || math.Abs(*rec.Judge.Cost-forkUSD) > 1e-9 {
				t.Errorf("session record: %d calls, cost %v, judge %+v; billed %d calls $%.7f, the judge %d $%.7f",
					rec.Calls, rec.Cost.Total, rec.Judge, parentCalls, parentUSD, forkCalls, forkUSD)
			}
		})
	}
}
