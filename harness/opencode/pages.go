package opencode

import (
	"bytes"
	"cmp"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// The part table's rows read from the database file's own pages (SQLite's file format,
// https://www.sqlite.org/fileformat2.html): a part holds its tool's whole output, most of the database's
// bytes, and SQLite reads a value whole, overflow pages and all, even for substr(data, 1, 256); the
// first bytes of a row are on its b-tree leaf page, so walking the leaves reads a part's type and tool
// without its output. Only a database read in place (immutable: no -wal with rows, so the file alone is
// the database) is read this way; anything this reader does not expect (another page or text layout, a
// column not where the schema says, a generated column, a value not text) sends the whole table back to
// SQLite, and a row whose first 256 characters are not all on its leaf page is asked of SQLite by rowid.

// headChars is how much of a part's data toolParts looks at: substr(data, 1, headChars).
const headChars = 256

// errPages says the file is not laid out as this reader expects: SQLite reads the table instead.
var errPages = errors.New("part table: not in the page layout this reader knows")

// partCols are where the columns toolParts reads sit in a part row's record, and the table's root page.
type partCols struct {
	root              int64
	id, message, data int
}

// partLayout asks SQLite where the part table starts and where its id, message_id and data are in a
// row's record. A table whose record is not its columns in order (an INTEGER PRIMARY KEY, stored as the
// rowid; a generated column; WITHOUT ROWID, whose pages are an index's) is errPages.
func partLayout(db *sql.DB) (partCols, error) {
	cols := partCols{id: -1, message: -1, data: -1}
	var schema string
	if err := db.QueryRow(`SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table' AND name = 'part' COLLATE NOCASE`).Scan(&cols.root, &schema); err != nil {
		return cols, fmt.Errorf("%w: %v", errPages, err)
	}
	if strings.Contains(strings.ToLower(schema), "collate") { // ORDER BY would not be the bytes' order
		return cols, fmt.Errorf("%w: a collation", errPages)
	}
	rows, err := db.Query(`SELECT name, upper(type), pk, hidden FROM pragma_table_xinfo('part') ORDER BY cid`)
	if err != nil {
		return cols, fmt.Errorf("%w: %v", errPages, err)
	}
	defer rows.Close()
	n, pks, intPK := 0, 0, false
	for ; rows.Next(); n++ {
		var name, typ string
		var pk, hidden int
		if err := rows.Scan(&name, &typ, &pk, &hidden); err != nil {
			return cols, fmt.Errorf("%w: %v", errPages, err)
		}
		if hidden != 0 {
			return cols, fmt.Errorf("%w: a generated column", errPages)
		}
		if pk > 0 {
			pks++
			intPK = typ == "INTEGER"
		}
		switch strings.ToLower(name) {
		case "id":
			cols.id = n
		case "message_id":
			cols.message = n
		case "data":
			cols.data = n
		}
	}
	if err := rows.Err(); err != nil {
		return cols, fmt.Errorf("%w: %v", errPages, err)
	}
	if pks == 1 && intPK || cols.id < 0 || cols.message < 0 || cols.data < 0 {
		return cols, fmt.Errorf("%w: columns", errPages)
	}
	return cols, nil
}

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

// pageFile is a database file read page by page. (Mapping the file instead saved a tenth of the reading,
// but every page the walk faults in counts in the process's RSS: the whole database.)
type pageFile struct {
	r        io.ReaderAt
	pageSize int
	usable   int
	pages    int64
	buf      []byte
}

// openPages reads the header of the database file r (of size bytes): its page size, the bytes each page
// keeps for extensions, and its text encoding (UTF-8 only).
func openPages(r io.ReaderAt, size int64) (*pageFile, error) {
	var h [100]byte
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("%w: header: %v", errPages, err)
	}
	if !bytes.Equal(h[:16], []byte("SQLite format 3\x00")) {
		return nil, fmt.Errorf("%w: not an SQLite 3 file", errPages)
	}
	ps := int(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 {
		return nil, fmt.Errorf("%w: page size %d", errPages, ps)
	}
	usable := ps - int(h[20])
	if usable < 480 || binary.BigEndian.Uint32(h[56:]) != 1 {
		return nil, fmt.Errorf("%w: reserved space or text encoding", errPages)
	}
	return &pageFile{r: r, pageSize: ps, usable: usable, pages: size / int64(ps), buf: make([]byte, ps)}, nil
}

// page reads page n (from 1).
func (f *pageFile) page(n int64) ([]byte, error) {
	if n < 1 || n > f.pages {
		return nil, fmt.Errorf("%w: page %d of %d", errPages, n, f.pages)
	}
	if _, err := f.r.ReadAt(f.buf, (n-1)*int64(f.pageSize)); err != nil {
		return nil, fmt.Errorf("%w: page %d: %v", errPages, n, err)
	}
	return f.buf, nil
}

// partPages walks the part table's b-tree from its root and reads every leaf's rows. Each page is read
// once (a page reached twice is a corrupt tree), so a walk ends within the file's pages.
func partPages(f *pageFile, cols partCols) ([]partRow, error) {
	var out []partRow
	seen := make([]uint64, f.pages/64+1)
	stack := []int64{cols.root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p, err := f.page(n)
		if err != nil {
			return nil, err
		}
		if seen[n/64]&(1<<(n%64)) != 0 {
			return nil, fmt.Errorf("%w: page %d reached twice", errPages, n)
		}
		seen[n/64] |= 1 << (n % 64)
		hdr := 0
		if n == 1 {
			hdr = 100
		}
		if hdr+12 > len(p) {
			return nil, fmt.Errorf("%w: page %d", errPages, n)
		}
		kind, cells := p[hdr], int(binary.BigEndian.Uint16(p[hdr+3:]))
		switch kind {
		case 0x05: // a table's interior page: cells of (child, key), then the right-most child
			ptrs := hdr + 12
			if ptrs+2*cells > f.usable {
				return nil, fmt.Errorf("%w: page %d: %d cells", errPages, n, cells)
			}
			// Children in key order (the stack's last is walked first): rows come in rowid order, which
			// for OpenCode's parts is already nearly their message and id order, so the sort is short.
			stack = append(stack, int64(binary.BigEndian.Uint32(p[hdr+8:])))
			for i := cells - 1; i >= 0; i-- {
				at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
				if at < ptrs || at+4 > f.usable {
					return nil, fmt.Errorf("%w: page %d: cell %d", errPages, n, i)
				}
				stack = append(stack, int64(binary.BigEndian.Uint32(p[at:])))
			}
		case 0x0d: // a table's leaf
			ptrs := hdr + 8
			if ptrs+2*cells > f.usable {
				return nil, fmt.Errorf("%w: page %d: %d cells", errPages, n, cells)
			}
			for i := range cells {
				at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
				if at < ptrs || at >= f.usable {
					return nil, fmt.Errorf("%w: page %d: cell %d", errPages, n, i)
				}
				row, err := f.leafCell(p[at:f.usable], cols)
				if err != nil {
					return nil, fmt.Errorf("%w (page %d, cell %d)", err, n, i)
				}
				out = append(out, row)
			}
		default:
			return nil, fmt.Errorf("%w: page %d is of kind %#x", errPages, n, kind)
		}
	}
	return out, nil
}

// leafCell reads one row of a table's leaf page: its payload's size, its rowid, and the part of the
// payload the page holds (the rest is on overflow pages, which are not read).
func (f *pageFile) leafCell(c []byte, cols partCols) (partRow, error) {
	size, n := varint(c)
	if n == 0 || size < 0 {
		return partRow{}, fmt.Errorf("%w: a cell's size", errPages)
	}
	c = c[n:]
	rowid, n := varint(c)
	if n == 0 {
		return partRow{}, fmt.Errorf("%w: a cell's rowid", errPages)
	}
	c = c[n:]
	local := f.localSize(size)
	if int64(len(c)) < local {
		return partRow{}, fmt.Errorf("%w: a cell past its page", errPages)
	}
	return readRecord(c[:local], size, rowid, cols)
}

// localSize is how many of a table row's payload bytes its leaf page holds (the file format's rule).
func (f *pageFile) localSize(payload int64) int64 {
	u := int64(f.usable)
	x := u - 35
	if payload <= x {
		return payload
	}
	m := (u-12)*32/255 - 23
	if k := m + (payload-m)%(u-4); k <= x {
		return k
	}
	return m
}

// readRecord reads a row's record from the local part of its payload (rec, of size bytes in all): the id
// and message id, which must be text on the page (SQLite orders other values otherwise than Go does),
// and the data's first characters.
func readRecord(rec []byte, size, rowid int64, cols partCols) (partRow, error) {
	row := partRow{rowid: rowid}
	hsize, n := varint(rec)
	if n == 0 || hsize < int64(n) || hsize > int64(len(rec)) || hsize > size {
		return row, fmt.Errorf("%w: a record's header", errPages)
	}
	types := rec[n:hsize]
	off := hsize // where the current column's value starts in the payload
	ids, onPage := 0, true
	for col := 0; len(types) > 0; col++ {
		st, n := varint(types)
		if n == 0 {
			return row, fmt.Errorf("%w: a record's header", errPages)
		}
		types = types[n:]
		l := valueLen(st)
		if l < 0 || off+l > size {
			return row, fmt.Errorf("%w: a record's value", errPages)
		}
		switch col {
		case cols.id, cols.message:
			if st < 13 || st%2 == 0 {
				return row, fmt.Errorf("%w: an id that is not text", errPages)
			}
			ids++
			if off+l > int64(len(rec)) { // text, on overflow pages: SQLite reads it
				onPage = false
				break
			}
			if col == cols.id {
				row.id = string(rec[off : off+l])
			} else {
				row.msg = string(rec[off : off+l])
			}
		case cols.data:
			if head, ok := dataHead(rec[min(off, int64(len(rec))):], st, l); ok {
				row.read = true
				row.tool, row.isTool, row.odd = headTool(head)
			}
		}
		off += l
	}
	if ids != 2 { // a record with fewer columns than the table (added later: their default)
		return row, fmt.Errorf("%w: a record without its ids", errPages)
	}
	row.read = row.read && onPage
	return row, nil
}

// dataHead is substr(data, 1, headChars) of a data value of serial type st and l bytes, of which local
// are on the page; false when the page does not hold all of it, or the value is a number (SQLite
// would print it).
func dataHead(local []byte, st, l int64) ([]byte, bool) {
	have := min(int64(len(local)), l)
	switch {
	case st == 0: // NULL: substr is NULL
		return nil, true
	case st >= 12 && st%2 == 0: // a blob: bytes
		k := min(l, headChars)
		return local[:min(k, have)], k <= have
	case st >= 13: // text: characters, as SQLite counts them, ending at a NUL
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
				for i < l && i < have && local[i]&0xc0 == 0x80 {
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

// valueLen is the size of a value of serial type st in a record; -1 for the two reserved types and for
// a type past int64 (read as negative).
func valueLen(st int64) int64 {
	switch {
	case st < 0:
		return -1
	case st >= 12:
		return (st - 12) / 2
	case st == 10, st == 11:
		return -1
	}
	return [...]int64{0, 1, 2, 3, 4, 6, 8, 8, 0, 0}[st]
}

// varint reads one of SQLite's variable-length integers (big-endian, 7 bits a byte, the ninth byte
// whole); n is 0 when b ends before it does.
func varint(b []byte) (v int64, n int) {
	var u uint64
	for i := 0; i < 9; i++ {
		if i == len(b) {
			return 0, 0
		}
		if i == 8 {
			return int64(u<<8 | uint64(b[i])), 9
		}
		u = u<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return int64(u), i + 1
		}
	}
	return 0, 0
}

// partsInPlace reads the part table of the database file at path, which db has open immutable, from its
// pages; the rows whose first characters overflow their page are read from SQLite by rowid.
func partsInPlace(db *sql.DB, path string) ([]partRow, error) {
	cols, err := partLayout(db)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	f, err := openPages(file, info.Size())
	if err != nil {
		return nil, err
	}
	rows, err := partPages(f, cols)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if !rows[i].read {
			if rows[i], err = partByRowid(db, rows[i].rowid); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(rows, func(a, b partRow) int { // ORDER BY message_id, id: text, in its bytes' order
		return cmp.Or(strings.Compare(a.msg, b.msg), strings.Compare(a.id, b.id))
	})
	return rows, nil
}

// partByRowid is one part's row as SQLite reads it.
func partByRowid(db *sql.DB, rowid int64) (partRow, error) {
	row := partRow{rowid: rowid, read: true}
	var head []byte
	err := db.QueryRow(`SELECT id, message_id, substr(data, 1, 256) FROM part WHERE rowid = ?`, rowid).Scan(&row.id, &row.msg, &head)
	row.tool, row.isTool, row.odd = headTool(head)
	return row, err
}
