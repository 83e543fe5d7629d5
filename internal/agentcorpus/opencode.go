package agentcorpus

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the database OpenCode keeps its sessions in

	"github.com/saverd/saverd/agentlog"
)

// schema is the part of OpenCode 1.18.33's schema the readers use, as its database declares it.
const schema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, cost real DEFAULT 0 NOT NULL,
  tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL,
  tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL,
  tokens_cache_write integer DEFAULT 0 NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, data text NOT NULL);
`

// opencode writes n OpenCode sessions into ~/.local/share/opencode/opencode.db: per session a user
// message and, per API call, an assistant message with its tokens and cost and a tool part with its
// output, as OpenCode 1.18.33 stores them.
func (c *corpus) opencode(n int, per int64) error {
	dir := filepath.Join(c.home, ".local", "share", "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, "opencode.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(schema); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op once committed
	for i := range n {
		if err := c.opencodeSession(tx, i, per); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	if info, err := os.Stat(path); err == nil {
		c.totals["opencode"].Bytes += info.Size()
	}
	return nil
}

func (c *corpus) opencodeSession(tx *sql.Tx, i int, per int64) error {
	sid := fmt.Sprintf("ses_%08d", i)
	cwd := fmt.Sprintf("/home/dev/src/p%d", i%50)
	start := c.at(i, 0).UnixMilli()
	c.totals["opencode"].Sessions++
	exec := func(q string, args ...any) error {
		_, err := tx.Exec(q, args...)
		return err
	}
	if err := exec(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		sid, "proj", "slug", cwd, "Read the files", "1.18.33", start, start); err != nil {
		return err
	}
	if err := exec(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, fmt.Sprintf("msg_%08d_u", i), sid, start, start,
		fmt.Sprintf(`{"role":"user","time":{"created":%d},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}`, start)); err != nil {
		return err
	}
	var written int64
	for j := 0; written < per; j++ {
		in, cached, out := usage(j)
		c.count("opencode", agentlog.Tokens{Input: in, CacheRead: cached, Output: out})
		at := c.at(i, j).UnixMilli()
		cost := (float64(in)*3 + float64(cached)*0.3 + float64(out)*15) / 1e6
		msg := fmt.Sprintf(`{"parentID":"msg_%08d_u","role":"assistant","mode":"build","agent":"build","path":{"cwd":"%s","root":"%s"},"cost":%g,"tokens":{"total":%d,"input":%d,"output":%d,"reasoning":0,"cache":{"write":0,"read":%d}},"modelID":"claude-sonnet-4-5","providerID":"anthropic","time":{"created":%d,"completed":%d},"finish":"tool-calls"}`,
			i, cwd, cwd, cost, in+cached+out, in, out, cached, at, at+900)
		part := fmt.Sprintf(`{"type":"tool","tool":"read","callID":"call_%d","state":{"status":"completed","input":{"filePath":"%s/f%d.go"},"output":%q,"title":"f%d.go","time":{"start":%d,"end":%d}}}`,
			j, cwd, j, output, j, at+100, at+200)
		mid := fmt.Sprintf("msg_%08d_%06d", i, j)
		if err := exec(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, mid, sid, at, at, msg); err != nil {
			return err
		}
		if err := exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, fmt.Sprintf("prt_%08d_%06d", i, j), mid, sid, at, at, part); err != nil {
			return err
		}
		written += int64(len(msg) + len(part))
	}
	return nil
}
