package opencode

import (
	"cmp"
	"database/sql"
	"fmt"
	"strings"
)

// headChars is how much of a part's data toolParts looks at: substr(data, 1, headChars).
const headChars = 256

// partRow is one part's row: its id, its message's, and what its data's first headChars characters say
// (read false: not all of them are on its leaf page, so SQLite is asked).
type partRow struct {
	rowid   int64
	id, msg string
	read    bool
	tool    string
	isTool  bool
	odd     bool // the first bytes do not say: asked of SQLite's JSON reader
}

// partLayout is the part table's root and its id, message_id and data columns.
func partLayout(db *sql.DB) (table, error) {
	return tableLayout(db, "part", "id", "message_id", "data")
}

// partsInPlace reads the part table of the database file at path, which db has open immutable, from its
// pages, in message and id order; the rows whose first characters overflow their page are read from
// SQLite by rowid.
func partsInPlace(db *sql.DB, path string) ([]partRow, error) {
	t, err := partLayout(db)
	if err != nil {
		return nil, err
	}
	return rowsInPlace(db, path, t, partPages, func(r *partRow) (int64, bool) { return r.rowid, !r.read }, partByRowid,
		func(a, b partRow) int { // ORDER BY message_id, id: text, in its bytes' order
			return cmp.Or(strings.Compare(a.msg, b.msg), strings.Compare(a.id, b.id))
		})
}

// partPages reads every row of the part table t from its leaf pages. The ids must be text (SQLite orders
// other values otherwise than Go does); one on an overflow page leaves the row to SQLite.
func partPages(f *pageFile, t table) ([]partRow, error) {
	var rows []partRow
	vals := make([]value, 3)
	err := f.walk(t.root, func(rowid int64, local []byte, size int64) error {
		all, err := record(local, size, t.cols, vals)
		if err != nil {
			return err
		}
		id, msg, data := vals[0], vals[1], vals[2]
		if !all || !id.text() || !msg.text() {
			return fmt.Errorf("part: %w: a row without its ids as text", errPages)
		}
		row := partRow{rowid: rowid}
		if id.whole() && msg.whole() {
			row.id, row.msg = string(id.local), string(msg.local)
			if head, ok := dataHead(data); ok {
				row.read = true
				row.tool, row.isTool, row.odd = headTool(head)
			}
		}
		rows = append(rows, row)
		return nil
	})
	return rows, err
}

// dataHead is substr(data, 1, headChars) of the data value v; false when its page does not hold all of
// it, or the value is a number (SQLite would print it).
func dataHead(v value) ([]byte, bool) {
	local, l := v.local, v.size
	have := int64(len(local))
	switch {
	case v.st == 0: // NULL: substr is NULL
		return nil, true
	case v.blob(): // bytes
		k := min(l, headChars)
		return local[:min(k, have)], k <= have
	case v.text(): // characters, as SQLite counts them, ending at a NUL
		i := int64(0)
		for chars := 0; chars < headChars; chars++ {
			if i == l {
				break
			}
			if i == have {
				return nil, false
			}
			c := local[i]
			if c == 0 {
				break
			}
			i++
			if c >= 0xc0 {
				for i < have && local[i]&0xc0 == 0x80 {
					i++
				}
				if i == have && i < l {
					return nil, false
				}
			}
		}
		return local[:i], true
	}
	return nil, false
}

// partByRowid is one part's row as SQLite reads it.
func partByRowid(db *sql.DB, rowid int64) (partRow, error) {
	row := partRow{rowid: rowid, read: true}
	var head []byte
	err := db.QueryRow(`SELECT id, message_id, substr(data, 1, 256) FROM part WHERE rowid = ?`, rowid).Scan(&row.id, &row.msg, &head)
	row.tool, row.isTool, row.odd = headTool(head)
	return row, err
}
