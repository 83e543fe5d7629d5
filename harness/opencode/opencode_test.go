package opencode

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
)

// fixture is one captured OpenCode 1.18.33 data directory (testdata/<name>: opencode.db and its -wal,
// byte-exact) and what the scripted server's log says it answered for the session's own calls (the title
// call, which the database never holds, left out): usage summed over those requests.
type fixture struct {
	name, session                         string
	calls, prompts                        int
	prompt, completion, cached, reasoning int64
	harnessCost                           float64
	tools                                 map[string]int
}

var fixtures = []fixture{
	// `opencode run`, `run --continue`, `run --session`: one session, seven calls, rows in the db and the -wal.
	{name: "run3", session: "ses_db6cfaddeffev8kVxs3qj2YHNl", calls: 7, prompts: 3,
		prompt: 36638, completion: 315, cached: 3500, reasoning: 21, harnessCost: 0.034118, tools: map[string]int{"bash": 3, "read": 1}},
	// The first run, every row still in the -wal (the db file is 4096 bytes).
	{name: "oc1", session: "ses_db6d1893effeR65LWlBieiG996", calls: 3, prompts: 1,
		prompt: 9702, completion: 129, cached: 900, reasoning: 9, harnessCost: 0.00915, tools: map[string]int{"bash": 1, "read": 1}},
}

// TestFixtures reads each database as `saverd sessions` does, holds every token kind to the server's
// (input: the prompt less its cached part; output: the completion, reasoning included), and checks that
// reading it left its files exactly as they were: no -shm made beside it, nothing written.
func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "opencode")
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", fx.name))); err != nil {
				t.Fatal(err)
			}
			before := fingerprint(t, dir)
			files, warn := Logs{}.Discover([]string{dir})
			if len(warn) > 0 || len(files) != 1 {
				t.Fatalf("Discover: %v, %q", files, warn)
			}
			recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
			if len(recs) != 1 {
				t.Fatalf("%d records, warnings %q", len(recs), warn)
			}
			for _, w := range warn {
				if !strings.Contains(w, `no price for model "mock-model"`) {
					t.Errorf("warning %q", w)
				}
			}
			r := recs[0]
			want := agentlog.Tokens{Input: fx.prompt - fx.cached, CacheRead: fx.cached, Output: fx.completion}
			if r.SessionID != fx.session || r.Harness != "opencode" || r.Calls != fx.calls || r.Tokens != want {
				t.Errorf("record %s %s: %d calls, %+v; want %s, %d calls, %+v", r.Harness, r.SessionID, r.Calls, r.Tokens, fx.session, fx.calls, want)
			}
			if r.Cost.Harness == nil || *r.Cost.Harness != fx.harnessCost {
				t.Errorf("OpenCode's own cost %v, want %v", r.Cost.Harness, fx.harnessCost)
			}
			if r.Cwd != "/home/dev/proj" || r.Unlogged == "" {
				t.Errorf("cwd %q, unlogged %q", r.Cwd, r.Unlogged)
			}
			for k, v := range fx.tools {
				if r.Tools[k] != v || len(r.Tools) != len(fx.tools) {
					t.Errorf("tools %v, want %v", r.Tools, fx.tools)
				}
			}
			tr, err := Logs{}.History(files[0].Path, r.SessionID, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkHistory(t, tr, fx, want)
			if after := fingerprint(t, dir); after != before {
				t.Errorf("reading changed the data directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func checkHistory(t *testing.T, tr agentlog.Transcript, fx fixture, want agentlog.Tokens) {
	t.Helper()
	calls, tok := 0, agentlog.Tokens{}
	for _, turn := range tr.Turns {
		calls += turn.Calls
		tok.Add(turn.Tokens)
	}
	if len(tr.Turns) != fx.prompts || calls != fx.calls || tok != want || tr.Cwd != "/home/dev/proj" || tr.Model != "mock-model" {
		t.Errorf("history: %d turns, %d calls, %+v, cwd %q; want %d, %d, %+v", len(tr.Turns), calls, tok, tr.Cwd, fx.prompts, fx.calls, want)
	}
	uses := map[string]int{}
	for _, m := range tr.Messages {
		for _, u := range m.ToolUses {
			uses[u.Tool]++
			if u.Text == nil || *u.Text == "" || tr.Durations[u.ToolUseID] <= 0 {
				t.Errorf("tool call %s (%s): result %v, %d ms", u.ToolUseID, u.Tool, u.Text, tr.Durations[u.ToolUseID])
			}
		}
	}
	if uses["Bash"] != fx.tools["bash"] || uses["Read"] != fx.tools["read"] {
		t.Errorf("history tool calls %v, want the ledger's names of %v", uses, fx.tools)
	}
}

// TestInPlace: a database with no -wal (OpenCode folded it in when it closed) is read where it is, as
// immutable: the same record as from its copy, and not a byte written or a file made beside it.
func TestInPlace(t *testing.T) {
	snap, err := openCopy(filepath.Join("testdata", "run3", "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := snap.db.Exec(`VACUUM INTO ?`, filepath.Join(dir, "opencode.db")); err != nil {
		t.Fatal(err)
	}
	snap.close()
	before := fingerprint(t, dir)
	files, _ := Logs{}.Discover([]string{dir})
	recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	fx := fixtures[0]
	if len(recs) != 1 || recs[0].Calls != fx.calls || recs[0].Tokens != (agentlog.Tokens{Input: fx.prompt - fx.cached, CacheRead: fx.cached, Output: fx.completion}) {
		t.Fatalf("records %+v", recs)
	}
	if after := fingerprint(t, dir); after != before {
		t.Errorf("reading in place changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// fingerprint names every file of dir with its size, modification time and hash.
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, _ := e.Info()
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%s %s %d %x\n", e.Name(), info.ModTime().Format(time.RFC3339Nano), len(data), sha256.Sum256(data))
	}
	return b.String()
}

// TestStorage writes the run3 session in OpenCode's older storage/ layout, file by file from the
// database's rows (session/<project>/<id>.json, message/<session>/<id>.json, part/<message>/<id>.json,
// each with its ids inside, as that layout keeps them), and reads the same record and history from it.
func TestStorage(t *testing.T) {
	data := filepath.Join(t.TempDir(), "opencode")
	storage := filepath.Join(data, "storage")
	snap, err := open(filepath.Join("testdata", "run3", "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer snap.close()
	db := snap.db
	write := func(path string, obj map[string]any) {
		t.Helper()
		raw, _ := json.Marshal(obj)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT id, project_id, directory, time_created, time_updated FROM session`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, project, dir string
		var created, updated int64
		_ = rows.Scan(&id, &project, &dir, &created, &updated)
		write(filepath.Join(storage, "session", project, id+".json"), map[string]any{"id": id, "projectID": project, "directory": dir,
			"time": map[string]any{"created": created, "updated": updated}})
	}
	rows.Close()
	for _, q := range []struct{ sql, dir string }{
		{`SELECT id, session_id, data FROM message`, "message"},
		{`SELECT id, message_id, data FROM part`, "part"},
	} {
		rows, err := db.Query(q.sql)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, owner string
			var raw []byte
			_ = rows.Scan(&id, &owner, &raw)
			var obj map[string]any
			_ = json.Unmarshal(raw, &obj)
			obj["id"] = id
			if q.dir == "message" {
				obj["sessionID"] = owner
			} else {
				obj["messageID"] = owner
			}
			write(filepath.Join(storage, q.dir, owner, id+".json"), obj)
		}
		rows.Close()
	}
	files, warn := Logs{}.Discover([]string{data})
	if len(files) != 1 || files[0].Path != storage || len(warn) > 0 {
		t.Fatalf("Discover: %v, %q", files, warn)
	}
	recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	fx := fixtures[0]
	want := agentlog.Tokens{Input: fx.prompt - fx.cached, CacheRead: fx.cached, Output: fx.completion}
	if len(recs) != 1 || recs[0].SessionID != fx.session || recs[0].Calls != fx.calls || recs[0].Tokens != want || recs[0].Tools["bash"] != 3 {
		t.Fatalf("records %+v", recs)
	}
	tr, err := Logs{}.History(storage, fx.session, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkHistory(t, tr, fx, want)
	if !(Logs{}).Owns(storage) || !(Logs{}).Owns(filepath.Join("testdata", "run3", "opencode.db")) || (Logs{}).Owns("opencode_test.go") {
		t.Error("Owns")
	}
}

// TestBadPartIsThePartsLoss: a part whose data SQLite cannot read as JSON, and whose first bytes do not
// say its type, leaves its tool uncounted with a warning naming it; the session's calls, tokens and other
// tools are read as without it (the page reader takes the part's first bytes; SQLite's JSON reader
// refuses the rest).
func TestBadPartIsThePartsLoss(t *testing.T) {
	snap, err := openCopy(filepath.Join("testdata", "run3", "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer snap.close()
	read := func(dir string) agentlog.Record {
		t.Helper()
		files, _ := Logs{}.Discover([]string{dir})
		recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
		if len(recs) != 1 {
			t.Fatalf("%d records", len(recs))
		}
		return recs[0]
	}
	want := func() agentlog.Record {
		dir := filepath.Join(t.TempDir(), "opencode")
		os.MkdirAll(dir, 0o755)
		if _, err := snap.db.Exec(`VACUUM INTO ?`, filepath.Join(dir, "opencode.db")); err != nil {
			t.Fatal(err)
		}
		return read(dir)
	}()
	dir := filepath.Join(t.TempDir(), "opencode")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "opencode.db")
	if _, err := snap.db.Exec(`VACUUM INTO ?`, path); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)
		SELECT 'prt_zzbad', message_id, session_id, time_created, time_updated, '{"id": 1, "type": "tool", "tool": "bash", ' FROM part LIMIT 1`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := read(dir)
	if got.Calls != want.Calls || got.Tokens != want.Tokens || !reflect.DeepEqual(got.Tools, want.Tools) {
		t.Errorf("with the bad part: %d calls %+v tools %v; without: %d %+v %v", got.Calls, got.Tokens, got.Tools, want.Calls, want.Tokens, want.Tools)
	}
	if w := strings.Join(got.Warnings, "\n"); !strings.Contains(w, "part prt_zzbad") {
		t.Errorf("warnings %q, want one naming the bad part", got.Warnings)
	}
}
