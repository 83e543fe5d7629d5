package agentlog

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"sort"
	"time"

	"github.com/saverd/saverd/prices"
)

// The cache file: cacheMagic, the format and build (buildID), then each log's entry: its key, the files
// it was read from with their fingerprints, and its records (encodeRecords); last the CRC-32C of all
// before it, so that a file damaged on disk is no cache rather than wrong figures. Numbers are varints
// and strings length-prefixed.
const (
	cacheMagic  = "saverd log cache\n"
	cacheFormat = 1
)

// encodeCache is the cache file holding entries, for build.
func encodeCache(entries map[string]cacheEntry, build string) []byte {
	keys := make([]string, 0, len(entries))
	n := len(cacheMagic) + len(build) + 16
	for k, e := range entries {
		keys = append(keys, k)
		n += len(k) + len(e.data) + 64*len(e.deps) + 16
	}
	sort.Strings(keys) // the same entries, the same file
	w := encoder{b: make([]byte, 0, n)}
	w.b = append(w.b, cacheMagic...)
	w.str(build)
	w.uint(uint64(len(keys)))
	for _, k := range keys {
		e := entries[k]
		w.str(k)
		w.uint(uint64(len(e.deps)))
		for _, d := range e.deps {
			w.str(d.path)
			w.fingerprint(d.fp)
		}
		w.str(e.data)
	}
	return binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b, castagnoli))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli) // computed by the CPU's own instruction where it has one

// decodeCache reads a cache file written for build; a file of another build is no entries. The entries'
// strings share one copy of data.
func decodeCache(data []byte, build string) (map[string]cacheEntry, error) {
	if len(data) < len(cacheMagic)+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, errCache
	}
	n := len(data) - 4
	if crc32.Checksum(data[:n], castagnoli) != binary.LittleEndian.Uint32(data[n:]) {
		return nil, errCache
	}
	body := string(data[:n])
	r := decoder{s: body, i: len(cacheMagic)}
	if r.str() != build || r.err != nil {
		return nil, errCache
	}
	entries := r.count()
	out := make(map[string]cacheEntry, entries)
	for range entries {
		k := r.str()
		deps := make([]cacheDep, r.count())
		for i := range deps {
			deps[i].path = r.str()
			deps[i].fp = r.fingerprint()
		}
		data := r.str()
		if r.err != nil {
			return nil, r.err
		}
		out[k] = cacheEntry{deps: deps, data: data}
	}
	if r.err != nil || r.i != len(body) {
		return nil, errCache
	}
	return out, nil
}

// encodeRecords is what a reader found of one log: each record's fields that no price sets (Finish sums
// the rest from its calls again), its reader's warnings (not the ones Finish adds), and its calls.
func encodeRecords(recs []Record) string {
	w := encoder{b: make([]byte, 0, encodedSize(recs))}
	w.uint(uint64(len(recs)))
	for i := range recs {
		r := &recs[i]
		w.str(r.SessionID)
		w.str(r.Harness)
		w.str(r.Cwd)
		w.optStr(r.Project)
		w.str(r.Unlogged)
		w.time(r.Start)
		w.time(r.End)
		w.time(r.began)
		w.strs(r.Files)
		w.strs(r.readerWarnings())
		w.optFloat(r.Cost.Harness)
		if f := r.figure; f != nil {
			w.uint(1)
			w.str(f.Source)
			w.str(f.Logs)
			w.str(f.Hint)
			w.float(f.USD)
			w.tokens(f.Tokens)
		} else {
			w.uint(0)
		}
		w.uint(uint64(len(r.calls)))
		for j := range r.calls {
			c := &r.calls[j]
			w.str(c.Key)
			w.str(c.Owner)
			w.str(c.Model)
			w.time(c.At)
			u := c.Usage
			for _, v := range [...]int64{u.Input, u.Output, u.CacheRead, u.CacheWrite5m, u.CacheWrite1h} {
				w.int(v)
			}
			w.strs(c.Tools)
		}
	}
	return string(w.b)
}

// encodedSize is about what encodeRecords writes of recs, so that it writes in one buffer: the strings'
// bytes and a few bytes for each number, length and time.
func encodedSize(recs []Record) int {
	n := 8
	for i := range recs {
		r := &recs[i]
		n += 128 + len(r.SessionID) + len(r.Harness) + len(r.Cwd) + len(r.Unlogged)
		for _, f := range r.Files {
			n += len(f) + 4
		}
		for _, w := range r.Warnings {
			n += len(w) + 4
		}
		for j := range r.calls {
			c := &r.calls[j]
			n += 48 + len(c.Key) + len(c.Owner) + len(c.Model)
			for _, t := range c.Tools {
				n += len(t) + 2
			}
		}
	}
	return n
}

// decodeRecords reads encodeRecords's records back, to be finished (FinishWith) at this run's prices.
// Their strings share s's memory.
func decodeRecords(s string) ([]Record, error) {
	r := decoder{s: s}
	recs := make([]Record, r.countOf(minRecordBytes))
	for i := range recs {
		rec := &recs[i]
		rec.SessionID = r.str()
		rec.Harness = r.str()
		rec.Cwd = r.str()
		rec.Project = r.optStr()
		rec.Unlogged = r.str()
		rec.Start = r.time()
		rec.End = r.time()
		rec.began = r.time()
		rec.Files = r.strs()
		rec.Warnings = r.strs()
		rec.Cost.Harness = r.optFloat()
		if r.uint() == 1 {
			f := &HarnessFigure{Source: r.str(), Logs: r.str(), Hint: r.str(), USD: r.float()}
			f.Tokens = r.tokens()
			rec.figure = f
		}
		if n := r.countOf(minCallBytes); n > 0 {
			rec.calls = make([]Call, n)
		}
		for j := range rec.calls {
			c := &rec.calls[j]
			c.Key, c.Owner, c.Model = r.str(), r.str(), r.str()
			c.At = r.time()
			c.Usage = prices.Usage{Input: r.int(), Output: r.int(), CacheRead: r.int(), CacheWrite5m: r.int(), CacheWrite1h: r.int()}
			c.Tools = r.strs()
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	if r.err != nil || r.i != len(s) {
		return nil, errCache
	}
	return recs, nil
}

// readerWarnings are the record's warnings but the ones Finish adds (unpricedWarnings), which a record
// read from the cache gets again at this run's prices.
func (r *Record) readerWarnings() []string {
	if len(r.Cost.Unpriced) == 0 {
		return r.Warnings
	}
	var out []string
	for _, w := range r.Warnings {
		if !r.isUnpricedWarning(w) {
			out = append(out, w)
		}
	}
	return out
}

type encoder struct{ b []byte }

func (w *encoder) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *encoder) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *encoder) float(v float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

func (w *encoder) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *encoder) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *encoder) optStr(p *string) {
	if p == nil {
		w.uint(0)
		return
	}
	w.uint(1)
	w.str(*p)
}

func (w *encoder) optFloat(p *float64) {
	if p == nil {
		w.uint(0)
		return
	}
	w.uint(1)
	w.float(*p)
}

// time keeps the instant and the offset it was written with (a log's "+02:00" is written back so).
func (w *encoder) time(t time.Time) {
	if t.IsZero() {
		w.uint(0)
		return
	}
	_, off := t.Zone()
	w.uint(1)
	w.int(t.Unix())
	w.uint(uint64(t.Nanosecond()))
	w.int(int64(off))
}

func (w *encoder) tokens(t Tokens) {
	for _, v := range [...]int64{t.Input, t.Output, t.CacheRead, t.CacheWrite} {
		w.int(v)
	}
}

func (w *encoder) fingerprint(f fingerprint) {
	if !f.exists {
		w.uint(0)
		return
	}
	w.uint(1)
	w.uint(uint64(f.mode))
	w.int(f.size)
	w.int(f.mtime)
	w.int(f.ctime)
	w.uint(f.ino)
	w.uint(f.dev)
}

// decoder reads an encoder's output; its first error stays, and every read after it is a zero value.
type decoder struct {
	s     string
	i     int
	err   error
	zones map[int64]*time.Location // the offsets met, one Location each
}

func (r *decoder) fail() { r.err, r.i = errCache, len(r.s) }

func (r *decoder) uint() uint64 {
	var v uint64
	for shift := uint(0); r.i < len(r.s) && shift < 64; shift += 7 {
		b := r.s[r.i]
		r.i++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
	r.fail()
	return 0
}

func (r *decoder) int() int64 {
	u := r.uint()
	return int64(u>>1) ^ -int64(u&1)
}

// count is a length, at most what is left to read (each item takes a byte at least).
func (r *decoder) count() int { return r.countOf(1) }

// countOf is a length of items that take size bytes at least each: what is left to read bounds it, so
// that no count in a damaged entry makes a list of more items than the entry could hold.
func (r *decoder) countOf(size int) int {
	n := r.uint()
	if n > uint64((len(r.s)-r.i)/size) {
		r.fail()
		return 0
	}
	return int(n)
}

// The fewest bytes a record and a call take (encodeRecords): a byte for each string, time, list and flag,
// a call's five token counts a byte each.
const (
	minRecordBytes = 13
	minCallBytes   = 10
)

func (r *decoder) str() string {
	n := r.count()
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

func (r *decoder) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *decoder) float() float64 {
	if len(r.s)-r.i < 8 {
		r.fail()
		return 0
	}
	var v uint64
	for k := 7; k >= 0; k-- {
		v = v<<8 | uint64(r.s[r.i+k])
	}
	r.i += 8
	return math.Float64frombits(v)
}

func (r *decoder) optStr() *string {
	if r.uint() == 0 {
		return nil
	}
	s := r.str()
	return &s
}

func (r *decoder) optFloat() *float64 {
	if r.uint() == 0 {
		return nil
	}
	f := r.float()
	return &f
}

func (r *decoder) time() time.Time {
	if r.uint() == 0 {
		return time.Time{}
	}
	sec, nsec, off := r.int(), r.uint(), r.int()
	if nsec >= 1e9 || off < -86400 || off > 86400 {
		r.fail()
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec))
	if off == 0 {
		return t.UTC()
	}
	z := r.zones[off]
	if z == nil {
		if r.zones == nil {
			r.zones = map[int64]*time.Location{}
		}
		z = time.FixedZone("", int(off))
		r.zones[off] = z
	}
	return t.In(z)
}

func (r *decoder) tokens() Tokens {
	return Tokens{Input: r.int(), Output: r.int(), CacheRead: r.int(), CacheWrite: r.int()}
}

func (r *decoder) fingerprint() fingerprint {
	if r.uint() == 0 {
		return fingerprint{}
	}
	return fingerprint{exists: true, mode: uint32(r.uint()), size: r.int(), mtime: r.int(), ctime: r.int(), ino: r.uint(), dev: r.uint()}
}
