package opencode

import (
	"bytes"
	"cmp"
	"database/sql"
	"fmt"
	"strings"
)

// msgRow is one message's row: its id, its session's, its time, and its data (read false: the data is
// not all on its leaf page, so SQLite is asked).
type msgRow struct {
	rowid       int64
	id, session string
	created     int64
	data        []byte
	read        bool
}

// messagesInPlace reads the message table of the database file at path, which db has open immutable,
// from its pages, in session, time and id order, as SQLite's index gives them.
func messagesInPlace(db *sql.DB, path string) ([]msgRow, error) {
	t, err := tableLayout(db, "message", "id", "session_id", "time_created", "data")
	if err != nil {
		return nil, err
	}
	return rowsInPlace(db, path, t, messagePages, func(r *msgRow) (int64, bool) { return r.rowid, !r.read }, messageByRowid,
		func(a, b msgRow) int { // ORDER BY session_id, time_created, id
			return cmp.Or(strings.Compare(a.session, b.session), cmp.Compare(a.created, b.created), strings.Compare(a.id, b.id))
		})
}

// messagePages reads every row of the message table t from its leaf pages. The ids must be text and the
// time an integer (SQLite orders other values otherwise); an id or data on an overflow page, or data
// that is a number, leaves the row to SQLite.
func messagePages(f *pageFile, t table) ([]msgRow, error) {
	var rows []msgRow
	vals := make([]value, 4)
	err := f.walk(t.root, func(rowid int64, local []byte, size int64) error {
		all, err := record(local, size, t.cols, vals)
		if err != nil {
			return err
		}
		id, session, created, data := vals[0], vals[1], vals[2], vals[3]
		if !all || !id.text() || !session.text() || !created.isInteger() {
			return fmt.Errorf("message: %w: a row without its ids as text and its time as an integer", errPages)
		}
		row := msgRow{rowid: rowid}
		at, onPage := created.integer()
		if onPage && id.whole() && session.whole() && data.whole() && (data.st == 0 || data.text() || data.blob()) {
			row.id, row.session, row.created, row.read = string(id.local), string(session.local), at, true
			if data.st != 0 {
				row.data = bytes.Clone(data.local)
			}
		}
		rows = append(rows, row)
		return nil
	})
	return rows, err
}

// messageByRowid is one message's row as SQLite reads it.
func messageByRowid(db *sql.DB, rowid int64) (msgRow, error) {
	row := msgRow{rowid: rowid, read: true}
	err := db.QueryRow(`SELECT id, session_id, time_created, data FROM message WHERE rowid = ?`, rowid).Scan(&row.id, &row.session, &row.created, &row.data)
	return row, err
}

// messagesOfSQLite is every message's row as SQLite reads it, in session, time and id order.
func messagesOfSQLite(db *sql.DB) ([]msgRow, error) {
	rows, err := db.Query(`SELECT id, session_id, time_created, data FROM message ORDER BY session_id, time_created, id`)
	if err != nil {
		return nil, err
	}
	var out []msgRow
	for rows.Next() {
		m := msgRow{read: true}
		if err := rows.Scan(&m.id, &m.session, &m.created, &m.data); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, m)
	}
	return out, closeRows(rows)
}
