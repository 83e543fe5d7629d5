package opencode

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/saverd/saverd/internal/safefile"
)

// A table's rows read from the database file's own pages (SQLite's file format,
// https://www.sqlite.org/fileformat2.html), for a database read in place (immutable: no -wal with rows,
// so the file alone is the database). A part holds its tool's whole output, most of the database's
// bytes, and SQLite reads a value whole, overflow pages and all, even for substr(data, 1, 256); a row's
// first bytes are on its b-tree leaf page, so walking the leaves reads a part's type and tool without its
// output (parts.go), and the messages without SQLite's per-row work (messages.go). Anything this reader
// does not expect (another page or text layout, a column not where the schema says, a generated column,
// a collation, an id that is not text) sends the whole table back to SQLite; a row whose needed bytes are
// not all on its leaf page is asked of SQLite by rowid.

// errPages says the file is not laid out as this reader expects: SQLite reads the table instead.
var errPages = errors.New("not in the page layout this reader knows")

// table is where a table starts and where the columns a reader wants sit in a row's record.
type table struct {
	name string
	root int64
	cols []int // by the names asked for
}

// tableLayout asks SQLite where table starts and where the named columns are in a row's record. A
// table whose record is not its columns in order (an INTEGER PRIMARY KEY, stored as the rowid; a
// generated column; WITHOUT ROWID, whose pages are an index's, which the walk refuses) or with a
// collation (ORDER BY would not be the bytes' order) is errPages.
func tableLayout(db *sql.DB, name string, cols ...string) (table, error) {
	t := table{name: name, cols: make([]int, len(cols))}
	var schema string
	if err := db.QueryRow(`SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE`, name).Scan(&t.root, &schema); err != nil {
		return t, fmt.Errorf("%s: %w: %v", name, errPages, err)
	}
	if strings.Contains(strings.ToLower(schema), "collate") {
		return t, fmt.Errorf("%s: %w: a collation", name, errPages)
	}
	rows, err := db.Query(`SELECT name, upper(type), pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid`, name)
	if err != nil {
		return t, fmt.Errorf("%s: %w: %v", name, errPages, err)
	}
	defer rows.Close()
	for i := range t.cols {
		t.cols[i] = -1
	}
	n, pks, intPK := 0, 0, false
	for ; rows.Next(); n++ {
		var col, typ string
		var pk, hidden int
		if err := rows.Scan(&col, &typ, &pk, &hidden); err != nil {
			return t, fmt.Errorf("%s: %w: %v", name, errPages, err)
		}
		if hidden != 0 {
			return t, fmt.Errorf("%s: %w: a generated column", name, errPages)
		}
		if pk > 0 {
			pks++
			intPK = typ == "INTEGER"
		}
		for i, c := range cols {
			if strings.EqualFold(col, c) {
				t.cols[i] = n
			}
		}
	}
	if err := rows.Err(); err != nil {
		return t, fmt.Errorf("%s: %w: %v", name, errPages, err)
	}
	if pks == 1 && intPK {
		return t, fmt.Errorf("%s: %w: an INTEGER PRIMARY KEY", name, errPages)
	}
	for i, c := range t.cols {
		if c < 0 {
			return t, fmt.Errorf("%s: %w: no column %s", name, errPages, cols[i])
		}
	}
	return t, nil
}

// pageFile is a database file read page by page, by ReadAt. (A map of the whole file saved a tenth of the
// part table's reading, but every page the walk faults in counts in the process's RSS: the whole
// database; a map of a few MB moved with the walk cost more in faults and unmaps than the reads it saved:
// docs/performance.md.)
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

// openPageFile opens the database file at path for reading its pages; close closes it. Only a regular
// file of at most maxDB bytes is read (a FIFO put in its place never holds the reader), which also bounds
// the walk's pages and its bitmap of those seen.
func openPageFile(path string) (f *pageFile, closeFn func(), err error) {
	file, size, err := safefile.OpenSized(path, maxDB)
	if err != nil {
		return nil, nil, err
	}
	if f, err = openPages(file, size); err != nil {
		file.Close()
		return nil, nil, err
	}
	return f, func() { file.Close() }, nil
}

// rowsInPlace reads the rows of table t from the database file at path with read (the table's leaf
// reader), has SQLite read by rowid each row read left undone, and sorts them by order, the ORDER BY of
// the query they stand in for.
func rowsInPlace[R any](db *sql.DB, path string, t table, read func(*pageFile, table) ([]R, error),
	undone func(*R) (int64, bool), byRowid func(*sql.DB, int64) (R, error), order func(a, b R) int) ([]R, error) {
	f, closeFile, err := openPageFile(path)
	if err != nil {
		return nil, err
	}
	rows, err := read(f, t)
	closeFile()
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if rowid, ok := undone(&rows[i]); ok {
			if rows[i], err = byRowid(db, rowid); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(rows, order)
	return rows, nil
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

// walk hands each row of the table b-tree at root to fn, in rowid order: its rowid, the part of its
// payload its leaf page holds (valid during the call) and the payload's whole size. Each page is read
// once (a page reached twice is a corrupt tree), so a walk ends within the file's pages.
func (f *pageFile) walk(root int64, fn func(rowid int64, local []byte, size int64) error) error {
	seen := make([]uint64, f.pages/64+1)
	stack := []int64{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p, err := f.page(n)
		if err != nil {
			return err
		}
		if seen[n/64]&(1<<(n%64)) != 0 {
			return fmt.Errorf("%w: page %d reached twice", errPages, n)
		}
		seen[n/64] |= 1 << (n % 64)
		hdr := 0
		if n == 1 {
			hdr = 100
		}
		kind, cells := p[hdr], int(binary.BigEndian.Uint16(p[hdr+3:]))
		switch kind {
		case 0x05: // a table's interior page: cells of (child, key), then the right-most child
			ptrs := hdr + 12
			if ptrs+2*cells > f.usable {
				return fmt.Errorf("%w: page %d: %d cells", errPages, n, cells)
			}
			// Children in key order (the stack's last is walked first): rows come in rowid order, which
			// for OpenCode's rows is already nearly the order they are sorted in, so the sort is short.
			stack = append(stack, int64(binary.BigEndian.Uint32(p[hdr+8:])))
			for i := cells - 1; i >= 0; i-- {
				at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
				if at < ptrs || at+4 > f.usable {
					return fmt.Errorf("%w: page %d: cell %d", errPages, n, i)
				}
				stack = append(stack, int64(binary.BigEndian.Uint32(p[at:])))
			}
		case 0x0d: // a table's leaf
			ptrs := hdr + 8
			if ptrs+2*cells > f.usable {
				return fmt.Errorf("%w: page %d: %d cells", errPages, n, cells)
			}
			for i := range cells {
				at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
				if at < ptrs || at >= f.usable {
					return fmt.Errorf("%w: page %d: cell %d", errPages, n, i)
				}
				if err := f.leafCell(p[at:f.usable], fn); err != nil {
					return fmt.Errorf("%w (page %d, cell %d)", err, n, i)
				}
			}
		default:
			return fmt.Errorf("%w: page %d is of kind %#x", errPages, n, kind)
		}
	}
	return nil
}

// leafCell reads one cell of a table's leaf page: its payload's size, its rowid, and the part of the
// payload the page holds (the rest is on overflow pages, which are not read).
func (f *pageFile) leafCell(c []byte, fn func(rowid int64, local []byte, size int64) error) error {
	size, n := varint(c)
	if n == 0 || size < 0 {
		return fmt.Errorf("%w: a cell's size", errPages)
	}
	c = c[n:]
	rowid, n := varint(c)
	if n == 0 {
		return fmt.Errorf("%w: a cell's rowid", errPages)
	}
	c = c[n:]
	local := f.localSize(size)
	if int64(len(c)) < local {
		return fmt.Errorf("%w: a cell past its page", errPages)
	}
	return fn(rowid, c[:local], size)
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

// value is one column of a row as its leaf page holds it: its serial type, its size, and the bytes of
// it the page holds (all of them when whole).
type value struct {
	st, size int64
	local    []byte
}

func (v value) whole() bool { return int64(len(v.local)) == v.size }
func (v value) text() bool  { return v.st >= 13 && v.st%2 == 1 }
func (v value) blob() bool  { return v.st >= 12 && v.st%2 == 0 }

// isInteger: the value is an integer (serial types 1 to 6, and 8 and 9 for 0 and 1).
func (v value) isInteger() bool { return v.st >= 1 && v.st <= 9 && v.st != 7 }

// integer is the value as an integer; false when it is not one, or not all on its page.
func (v value) integer() (int64, bool) {
	switch {
	case v.st == 8:
		return 0, true
	case v.st == 9:
		return 1, true
	case v.st < 1 || v.st > 6 || !v.whole():
		return 0, false
	}
	var u uint64
	for _, b := range v.local {
		u = u<<8 | uint64(b)
	}
	shift := 64 - 8*uint(len(v.local)) // sign-extend the big-endian two's complement
	return int64(u<<shift) >> shift, true
}

// record reads the values of the columns at cols from a row's record: rec is the part of its payload its
// leaf page holds, size the payload's whole size. false: the record has fewer columns than asked for (a
// column added after it was written holds its default), so SQLite is the one to read it.
func record(rec []byte, size int64, cols []int, out []value) (bool, error) {
	hsize, n := varint(rec)
	if n == 0 || hsize < int64(n) || hsize > int64(len(rec)) || hsize > size {
		return false, fmt.Errorf("%w: a record's header", errPages)
	}
	types := rec[n:hsize]
	off := hsize // where the current column's value starts in the payload
	found := 0
	for col := 0; len(types) > 0; col++ {
		st, n := varint(types)
		if n == 0 {
			return false, fmt.Errorf("%w: a record's header", errPages)
		}
		types = types[n:]
		l := valueLen(st)
		if l < 0 || l > size-off { // off ≤ size throughout, so size-off cannot overflow where off+l could
			return false, fmt.Errorf("%w: a record's value", errPages)
		}
		for i, c := range cols {
			if c == col {
				from := min(off, int64(len(rec)))
				out[i] = value{st: st, size: l, local: rec[from:min(off+l, int64(len(rec)))]}
				found++
			}
		}
		off += l
	}
	return found == len(cols), nil
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
