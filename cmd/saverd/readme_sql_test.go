package main

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/npmclient"
)

// duckDBVersion is the DuckDB Node.js client the README's query is run with; .ci/run installs it.
const duckDBVersion = "1.5.6-r.1"

// runSQL is the query of argv[2] through DuckDB, its rows printed as JSON (counts as strings).
const runSQL = `const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const r = await conn.runAndReadAll(process.argv[2]);
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()));
})().catch(e => { process.stderr.write(String(e.stack || e)); process.exit(1); });
`

// TestREADMEQueries runs README's DuckDB query, as written there, over two machines' `saverd sessions
// --format ndjson` files, and holds each row to sums taken here from the same files: what it says it
// left out (sessions and tokens of a model with no price) is really left out. It also holds README to
// naming no other engine's query, which no test here could run.
func TestREADMEQueries(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var query string
	for _, line := range strings.Split(string(readme), "\n") {
		if m := regexp.MustCompile(`^duckdb -c "(.*)"$`).FindStringSubmatch(line); m != nil {
			query = m[1]
		}
		if strings.HasPrefix(line, "clickhouse") {
			t.Errorf("README runs a ClickHouse query no test runs: %s", line)
		}
	}
	if query == "" {
		t.Fatal(`README has no line duckdb -c "…"`)
	}
	node, modules := duckDB(t)
	dir := t.TempDir()
	for name, args := range map[string][]string{"laptop.ndjson": {"--claude-dir", fixtureClaude}, "desktop.ndjson": {"--codex-dir", fixtureCodex}} {
		code, out, errOut := runBinary(t, append([]string{"sessions", "--format", "ndjson"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(t.TempDir(), "run.js")
	if err := os.WriteFile(script, []byte(runSQL), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, query)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderrOf(err))
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}

	type sums struct {
		sessions, unpricedSessions, unpricedTokens int64
		priced                                     float64
	}
	want := map[string]*sums{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	for _, f := range files {
		data, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(data)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r struct {
				Harness string `json:"harness"`
				Cost    struct {
					Total          *float64 `json:"total"`
					Priced         float64  `json:"priced"`
					UnpricedTokens int64    `json:"unpriced_tokens"`
				} `json:"cost"`
			}
			decode(t, sc.Text(), &r)
			s := want[r.Harness]
			if s == nil {
				s = &sums{}
				want[r.Harness] = s
			}
			s.sessions++
			s.priced += r.Cost.Priced
			s.unpricedTokens += r.Cost.UnpricedTokens
			if r.Cost.Total == nil {
				s.unpricedSessions++
			}
		}
		data.Close()
	}
	if len(rows) != len(want) || want["codex"] == nil || want["codex"].unpricedSessions == 0 {
		t.Fatalf("rows %v, want one per harness of %v (codex with an unpriced session)", rows, want)
	}
	num := func(v any) float64 {
		switch x := v.(type) {
		case float64:
			return x
		case string:
			f, _ := strconv.ParseFloat(x, 64)
			return f
		}
		return math.NaN()
	}
	for _, row := range rows {
		h, _ := row["harness"].(string)
		w := want[h]
		if w == nil || num(row["sessions"]) != float64(w.sessions) || math.Abs(num(row["priced_usd"])-w.priced) > 1e-9 ||
			num(row["unpriced_tokens"]) != float64(w.unpricedTokens) || num(row["unpriced_sessions"]) != float64(w.unpricedSessions) {
			t.Errorf("README's query gave %v for %s; the files hold %+v", row, h, w)
		}
	}
}

// duckDB is node and the node_modules holding DuckDB's client, npm-installed once into the clients'
// cache (.ci/run does it up front); with no npm the test skips, on CI it fails.
func duckDB(t *testing.T) (node, modules string) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "saverd-clients", "duckdb-node-api-"+duckDBVersion)
	find := func(dir string) string {
		p := filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return filepath.Join(dir, "node_modules")
	}
	node, nodeErr := exec.LookPath("node")
	npm, npmErr := exec.LookPath("npm")
	if nodeErr != nil || (npmErr != nil && npmclient.Installed(dir, find) == "") {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or npm missing: .ci/run installs them for README's DuckDB query (%v, %v)", nodeErr, npmErr)
		}
		t.Skip("node and npm are needed to run README's DuckDB query (apt-get install npm)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	modules, err = npmclient.Install(ctx, npm, dir, "@duckdb/node-api@"+duckDBVersion, find)
	if err != nil {
		t.Fatalf("DuckDB's client: %v", err)
	}
	return node, modules
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
