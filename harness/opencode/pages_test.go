package opencode

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// partSchema is OpenCode 1.18.33's part table, as its database declares it.
const partSchema = `CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);`

// partData are parts' data as OpenCode writes them and as it might: a tool with its output (on overflow
// pages past a few KB), other kinds, a type past the first 256 characters, characters of two to four
// bytes across the 256th, a NUL, an escaped name.
func partData(i int) any {
	out := strings.Repeat("line of tool output\n", i%7*150)
	switch i % 12 {
	case 0, 1, 2:
		return fmt.Sprintf(`{"type":"tool","tool":"%s","callID":"call_%d","state":{"status":"completed","output":%q}}`, []string{"read", "bash", "edit"}[i%3], i, out)
	case 3:
		return `{"type":"step-start","snapshot":"` + strings.Repeat("ab", i) + `"}`
	case 4:
		return `{"type":"text","text":` + fmt.Sprintf("%q", out) + `}`
	case 5: // the type after 256 characters: asked of SQLite's JSON reader
		return `{"callID":"` + strings.Repeat("x", 300) + `","type":"tool","tool":"grep","state":{"output":` + fmt.Sprintf("%q", out) + `}}`
	case 6: // multi-byte characters across the 256th: substr counts characters, not bytes
		return `{"note":"` + strings.Repeat("é", 120+i%5) + strings.Repeat("😀", 10) + `","type":"tool","tool":"glob","out":` + fmt.Sprintf("%q", out) + `}`
	case 7:
		return "{\"type\":\"tool\",\"tool\":\"nul\",\"x\":\"a\x00b\"}"
	case 8:
		return `{"type":"tool","tool":"we\"ird","state":{}}`
	case 9:
		return []byte(`{"type":"tool","tool":"blob","state":{"output":` + fmt.Sprintf("%q", out) + `}}`)
	case 10:
		return `{"type":"tool","tool":"` + strings.Repeat("é", 140) + `"}`
	}
	return `{"type":"reasoning","text":"` + strings.Repeat("z", i%5000) + `"}`
}

// partsDB writes n parts into a new database of the given page size and schema, with one odd row of
// each value kind the schema allows when odd is set, and returns its path, closed: nothing in a -wal.
func partsDB(t testing.TB, pageSize, n int, schema string, odd bool) string {
	t.Helper()
	return writeDB(t, pageSize, schema, func(tx *sql.Tx) {
		insertParts(t, tx, pageSize, n, odd)
	})
}

// insertParts inserts partsDB's rows.
func insertParts(t testing.TB, tx *sql.Tx, pageSize, n int, odd bool) {
	for i := range n {
		msg := fmt.Sprintf("msg_%04d", (i*7919)%(n/3+1)) // parts of a message out of rowid order
		id := fmt.Sprintf("prt_%06d", (i*104729)%1000003)
		if i%50 == 49 { // an id long enough to push the data's start off its leaf page
			id += strings.Repeat("-", 3*pageSize)
		}
		if _, err := tx.Exec(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, 'ses', ?, ?, ?)`, id, msg, i, i, partData(i)); err != nil {
			t.Fatal(err)
		}
	}
	if odd {
		for i, v := range []any{nil, 42, 4.5, "{}"} {
			if _, err := tx.Exec(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, 'msg_odd', 'ses', 0, 0, ?)`, fmt.Sprintf("odd_%d", i), v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// writeDB writes a new database of the given page size and schema, its rows by fill in one transaction,
// and returns its path, closed: nothing in a -wal.
func writeDB(t testing.TB, pageSize int, schema string, fill func(tx *sql.Tx)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "opencode.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA page_size = %d", pageSize)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	fill(tx)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}

// immutable opens a database as a snapshot read in place does.
func immutable(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestPartsInPlaceAgreeWithSQLite holds the parts read from the database's pages to SQLite's own reading
// of them (substr(data, 1, 256) in message and id order), row by row, across page sizes, trees of one
// page and of three levels, rows past their leaf page, values of every kind, OpenCode's own databases,
// and the layouts the page reader hands back to SQLite.
func TestPartsInPlaceAgreeWithSQLite(t *testing.T) {
	nullable := strings.Replace(partSchema, "data text NOT NULL", "data", 1)
	cases := []struct {
		name     string
		path     string
		fallback bool // the page reader declines, and SQLite reads the table
	}{
		{name: "one page", path: partsDB(t, 4096, 1, partSchema, false)},
		{name: "4096", path: partsDB(t, 4096, 600, partSchema, false)},
		{name: "512, three levels", path: partsDB(t, 512, 3000, nullable, true)},
		{name: "65536", path: partsDB(t, 65536, 400, nullable, true)},
		{name: "columns in another order", path: partsDB(t, 1024, 300, `CREATE TABLE part (data, time_updated integer, session_id text, id text PRIMARY KEY, time_created integer, message_id text)`, true)},
		{name: "a column added", path: addColumn(t, partsDB(t, 4096, 300, partSchema, false))},
		{name: "without rowid", path: partsDB(t, 4096, 300, strings.Replace(partSchema, "NOT NULL);", "NOT NULL) WITHOUT ROWID;", 1), false), fallback: true},
		{name: "integer primary key", path: partsDB(t, 4096, 0, `CREATE TABLE part (id integer PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text)`, false), fallback: true},
		{name: "a collation", path: partsDB(t, 4096, 300, strings.Replace(partSchema, "message_id text", "message_id text COLLATE NOCASE", 1), false), fallback: true},
		{name: "fixture run3", path: checkpointed(t, "run3")},
		{name: "fixture oc1", path: checkpointed(t, "oc1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := immutable(t, c.path)
			if !agree(t, db, c.path, c.fallback, partsOfSQLite, partsInPlace, func(r *partRow) { r.rowid = 0 }) {
				return
			}
			st := &store{tools: map[string][]string{}}
			if err := st.toolParts(db, c.path); err != nil {
				t.Fatal(err)
			}
			sq := &store{tools: map[string][]string{}}
			if err := sq.toolParts(db, ""); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st.tools, sq.tools) {
				t.Errorf("tools from the pages %v, from SQLite %v", st.tools, sq.tools)
			}
		})
	}
}

// agree holds the rows read from the pages of the database at path (open in db) to SQLite's, row by row
// (their rowids cleared by clear: the query does not read them), or, when fallback is set, checks that the
// page reader declines the file. It reports whether the rows were read from the pages.
func agree[R any](t *testing.T, db *sql.DB, path string, fallback bool, ofSQLite func(*sql.DB) ([]R, error),
	inPlace func(*sql.DB, string) ([]R, error), clear func(*R)) bool {
	t.Helper()
	want, err := ofSQLite(db)
	if err != nil {
		t.Fatal(err)
	}
	got, err := inPlace(db, path)
	if fallback {
		if !errors.Is(err, errPages) {
			t.Fatalf("read from the pages (%v), want errPages", err)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d rows from the pages, SQLite reads %d", len(got), len(want))
	}
	for i := range want {
		clear(&got[i])
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d: pages %+v, SQLite %+v", i, got[i], want[i])
		}
	}
	return true
}

// addColumn adds a column to the part table, and a row after it: older rows' records lack the column.
func addColumn(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`ALTER TABLE part ADD COLUMN extra text DEFAULT 'x'`,
		`INSERT INTO part VALUES ('prt_new', 'msg_0001', 'ses', 0, 0, '{"type":"tool","tool":"new"}', 'y')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// checkpointed is a fixture's database with its -wal folded in, as OpenCode leaves it when it closes.
func checkpointed(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "opencode.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE`); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCorruptPages: a database whose part pages are damaged is read by SQLite instead (its rows, or
// its error naming the file), never half from the pages; saverd does not panic on it.
func TestCorruptPages(t *testing.T) {
	path := partsDB(t, 1024, 400, partSchema, false)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range []int{1024 + 3, 2*1024 + 8, 3*1024 + 100, len(data) / 2, len(data) - 700} {
		bad := bytes.Clone(data)
		for j := range 8 {
			bad[at+j] ^= 0xa5
		}
		p := filepath.Join(t.TempDir(), "opencode.db")
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := readDB(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("damage %d: error %q does not name the file", i, err)
			}
			continue
		}
		if st == nil {
			t.Errorf("damage %d: no store and no error", i)
		}
	}
}

// FuzzPartPages: the page walker over any bytes ends with rows or an error, within the file's pages.
func FuzzPartPages(f *testing.F) {
	path := partsDB(f, 512, 4, partSchema, false)
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	db := immutable(f, path)
	cols, err := partLayout(db)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, cols.root)
	f.Add(data[:len(data)/2], cols.root)
	f.Add(data, int64(1))
	f.Fuzz(func(t *testing.T, data []byte, root int64) {
		pf, err := openPages(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		c := cols
		c.root = root
		rows, err := partPages(pf, c)
		if err == nil && int64(len(rows)) > int64(len(data)) {
			t.Fatalf("%d rows from %d bytes", len(rows), len(data))
		}
	})
}

// messagesDB writes n messages into a new database of the given page size and schema: sessions' messages
// out of rowid order, times of every integer width (0 and 1, negative, past 32 bits) and shared times,
// data of a few bytes to past a page, and, when odd is set, data that is NULL, a number or a blob.
func messagesDB(t testing.TB, pageSize, n int, schema string, odd bool) string {
	t.Helper()
	return writeDB(t, pageSize, schema, func(tx *sql.Tx) {
		insertMessages(t, tx, pageSize, n, odd)
	})
}

// insertMessages inserts messagesDB's rows.
func insertMessages(t testing.TB, tx *sql.Tx, pageSize, n int, odd bool) {
	times := []int64{0, 1, -5, 127, 40000, 1 << 40, 1796000000000}
	for i := range n {
		id := fmt.Sprintf("msg_%06d", (i*104729)%1000003)
		if i%40 == 39 {
			id += strings.Repeat("-", 2*pageSize)
		}
		data := any(fmt.Sprintf(`{"role":"assistant","modelID":"m%d","tokens":{"input":%d,"output":%d},"text":%q}`, i%3, i, 2*i, strings.Repeat("é", i%9*200)))
		if odd {
			switch i % 10 {
			case 3:
				data = nil
			case 5:
				data = 42
			case 7:
				data = []byte(`{"role":"assistant"}`)
			}
		}
		if _, err := tx.Exec(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, ?)`,
			id, fmt.Sprintf("ses_%d", (i*7)%5), times[i%len(times)]+int64(i%3), data); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMessagesInPlaceAgreeWithSQLite holds the messages read from the database's pages to SQLite's own
// reading of them (in session, time and id order), row by row, and hands back to SQLite the layouts the
// page reader does not know.
func TestMessagesInPlaceAgreeWithSQLite(t *testing.T) {
	const schema = `CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);`
	nullable := strings.Replace(schema, "data text NOT NULL", "data", 1)
	cases := []struct {
		name     string
		path     string
		fallback bool
	}{
		{name: "4096", path: messagesDB(t, 4096, 700, schema, false)},
		{name: "512, odd values", path: messagesDB(t, 512, 1500, nullable, true)},
		{name: "65536", path: messagesDB(t, 65536, 300, nullable, true)},
		{name: "time as text", path: messagesDB(t, 4096, 50, strings.Replace(schema, "time_created integer", "time_created text", 1), false), fallback: true},
		{name: "fixture run3", path: checkpointed(t, "run3")},
		{name: "fixture oc1", path: checkpointed(t, "oc1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			agree(t, immutable(t, c.path), c.path, c.fallback, messagesOfSQLite, messagesInPlace, func(r *msgRow) { r.rowid = 0 })
		})
	}
}

// TestRecordRefuses: a record whose header is cut short, names a reserved or an out-of-range serial type,
// or sizes a value past its payload is an error, never a panic.
func TestRecordRefuses(t *testing.T) {
	nine := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff} // a varint of all ones: -1 as int64
	for _, c := range []struct {
		name string
		rec  []byte
	}{
		{"empty", nil},
		{"header past the record", []byte{0x20, 0x0d}},
		{"header cut inside a varint", []byte{0x02, 0x81}},
		{"reserved type", []byte{0x02, 0x0a}},
		{"type past int64", append(append([]byte{0x0a}, nine...), 0)},
		{"value past the payload", []byte{0x02, 0x7f, 'a'}},
		{"values whose sum passes int64", huge},
	} {
		size := int64(len(c.rec))
		if len(c.rec) == len(huge) {
			size = math.MaxInt64 // a payload that says it holds them all
		}
		vals := make([]value, 3)
		if _, err := record(c.rec, size, []int{0, 1, 2}, vals); !errors.Is(err, errPages) {
			t.Errorf("%s: %v, want errPages", c.name, err)
		}
	}
}

// huge is a record of three values each near math.MaxInt64/2 bytes long (serial type MaxInt64).
var huge = func() []byte {
	rec := []byte{1 + 3*9}
	for range 3 {
		rec = append(rec, 0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	}
	return rec
}()

// FuzzRecord: a record's reader over any bytes ends with values or an error, and the values it hands out
// lie within the record.
func FuzzRecord(f *testing.F) {
	f.Add([]byte{0x04, 0x17, 0x01, 0x13, 'p', 'r', 't', '_', '1', 0x05, 'm'}, int64(11))
	f.Add([]byte{0x02, 0x0a}, int64(2))
	f.Add([]byte{0x03, 0x81, 0x80, 'x'}, int64(200))
	f.Add(huge, int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, rec []byte, size int64) {
		vals := make([]value, 3)
		all, err := record(rec, size, []int{0, 1, 2}, vals)
		if err != nil || !all {
			return
		}
		for _, v := range vals {
			if int64(len(v.local)) > v.size {
				t.Fatalf("a value of %d bytes holds %d", v.size, len(v.local))
			}
			dataHead(v)
			v.integer()
		}
	})
}
