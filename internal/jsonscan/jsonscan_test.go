package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/saverd/saverd/internal/jsondepth"
)

// plainEndBytes is plainEnd a byte at a time: what the word and vector scans are held to.
func plainEndBytes(d []byte, i int) int {
	for i < len(d) && plain[d[i]] {
		i++
	}
	return i
}

// plainEnds are the scans held to plainEndBytes: plainEnd as the scanner calls it (the vector loop
// where the CPU has one) and the word scan every CPU runs.
var plainEnds = []struct {
	name string
	f    func([]byte, int) int
}{{"plainEnd", plainEnd}, {"plainEndWords", plainEndWords}}

// TestPlainEnd: the word and vector scans stop where the byte-by-byte one does: every byte value at every
// place in a word and in two vectors, and a byte of each kind the scans flag (a control byte, the quote,
// the backslash, the first byte beyond ASCII; DEL, the last plain byte, flags none) at every place from
// every start, in texts of every length up to two vectors and two words, so the vector loop's last,
// overlapping load starts at each place too.
func TestPlainEnd(t *testing.T) {
	base := []byte(strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 3))
	check := func(d []byte, from int) {
		t.Helper()
		want := plainEndBytes(d, from)
		for _, p := range plainEnds {
			if got := p.f(d, from); got != want {
				t.Fatalf("%s: %q from %d: %d, want %d", p.name, d, from, got, want)
			}
		}
	}
	for c := 0; c < 256; c++ {
		for at := 0; at < 72; at++ {
			d := append([]byte(nil), base[:72]...)
			d[at] = byte(c)
			for _, from := range []int{0, 1, 8, 9, 40} {
				check(d, from)
			}
		}
	}
	for n := 0; n <= 80; n++ {
		for _, c := range []byte{0x1f, '"', '\\', 0x7f, 0x80} {
			for at := 0; at <= n; at++ {
				d := append([]byte(nil), base[:n]...)
				if at < n {
					d[at] = c
				}
				for from := 0; from <= n; from++ {
					check(d, from)
				}
			}
		}
	}
}

// FuzzPlainEnd holds the word and vector scans to the byte-by-byte one on any text from any start.
func FuzzPlainEnd(f *testing.F) {
	f.Add([]byte(strings.Repeat("a", 70)+`"`), 3)
	f.Add([]byte(strings.Repeat("é", 40)), 0)
	f.Add([]byte(strings.Repeat(`line\n`, 20)), 1)
	f.Fuzz(func(t *testing.T, d []byte, from int) {
		if from < 0 || from > len(d) {
			return
		}
		want := plainEndBytes(d, from)
		for _, p := range plainEnds {
			if got := p.f(d, from); got != want {
				t.Fatalf("%s: %q from %d: %d, want %d", p.name, d, from, got, want)
			}
		}
	})
}

// TestMeasure: a string's UTF-16 length counted over escapes, multi-byte characters and surrogate
// pairs, and its start decoded into the prefix, whole characters only.
func TestMeasure(t *testing.T) {
	for _, c := range []struct {
		text   string
		units  int
		prefix string
		whole  bool
		ok     bool
	}{
		{`"plain text that is longer than eight bytes"`, 42, "plain ", false, true},
		{`"a\nb\t\"\\\/\u00e9\ud83d\ude00é😀"`, 13, "a\nb\t\"\\", false, true},
		{`"ab\u00e9€"`, 4, "abé", false, true},
		{`"abc"`, 3, "abc", true, true},
		{`""`, 0, "", true, true},
		{`"\ud800"`, 0, "", false, false},
		{`"\udc00\ud800"`, 0, "", false, false},
		{"\"a\x01\"", 0, "", false, false},
		{"\"\xff\"", 0, "", false, false},
		{`"unterminated`, 0, "", false, false},
		{`"\x"`, 0, "", false, false},
	} {
		sc := New([]byte(c.text))
		var prefix [6]byte
		units, n, whole, ok := sc.Measure(prefix[:])
		if ok != c.ok || (ok && (units != c.units || string(prefix[:n]) != c.prefix || whole != c.whole)) {
			t.Errorf("%s: %d units, prefix %q whole %v, ok %v; want %d, %q %v, %v", c.text, units, prefix[:n], whole, ok, c.units, c.prefix, c.whole, c.ok)
		}
	}
}

// TestValue: values as a UseNumber decoder makes them, and the texts refused.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{`{"a":[1,-0.5e+3,true,false,null,"x",{}],"b":{"c":[]}}`, true},
		{`{"a":1,"a":2}`, false},
		{`[1,]`, false},
		{`{"a" 1}`, false},
		{`-`, false},
		{`1.`, false},
		{`1e`, false},
		{`tru`, false},
	} {
		sc := New([]byte(c.text))
		_, ok := sc.Value()
		if ok = ok && sc.End(); ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.text, ok, c.ok)
		}
	}
}

// TestSkip: Skip accepts what is valid JSON and refuses what is not, arrays included, which it reads
// without building their values.
func TestSkip(t *testing.T) {
	for _, text := range []string{
		`[]`, `[ ]`, `[1,[2,[3,{"a":[]}]],"x\n",true,null]`, `{"a":[{"b":[1,2]},[]]}`,
		`[1,]`, `[,1]`, `[1 2]`, `[`, `[[]`, `["\x01"]`, `[tru]`, `{"a":[}`, `[1]]`,
	} {
		sc := New([]byte(text))
		got := sc.Skip() && sc.End()
		if want := json.Valid([]byte(text)); got != want {
			t.Errorf("%s: Skip %v, want %v (encoding/json's validity)", text, got, want)
		}
	}
	deep := []byte(strings.Repeat("[", jsondepth.Max+1) + strings.Repeat("]", jsondepth.Max+1))
	if sc := New(deep); sc.Skip() {
		t.Errorf("an array nested past jsondepth.Max was skipped")
	}
}

func BenchmarkSkipArray(b *testing.B) {
	benchSkip(b, `[`+strings.Repeat(`{"content":"run the tests","status":"pending","activeForm":"running"},`, 20)+`1]`)
}

// benchSkip times Skip over text.
func benchSkip(b *testing.B, text string) {
	data := []byte(text)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		sc := New(data)
		if !sc.Skip() {
			b.Fatal("not skipped")
		}
	}
}

// TestInPlace: a plain string is the text itself; one with an escape or beyond ASCII is unescaped as
// String does; what is no string is refused.
func TestInPlace(t *testing.T) {
	for _, c := range []struct {
		text, want  string
		ok, inPlace bool
	}{
		{`"abc"`, "abc", true, true},
		{`""`, "", true, true},
		{`"a\nb"`, "a\nb", true, false},
		{`"é"`, "é", true, false},
		{`"a`, "", false, false},
		{`1`, "", false, false},
		{`"\x01"`, "", false, false},
	} {
		data := []byte(c.text)
		sc := New(data)
		got, ok := sc.InPlace()
		if ok != c.ok || got != c.want {
			t.Errorf("%s: %q %v, want %q %v", c.text, got, ok, c.want, c.ok)
			continue
		}
		if inPlace := ok && len(got) > 0 && unsafe.StringData(got) == &data[1]; c.inPlace && len(got) > 0 && !inPlace {
			t.Errorf("%s: copied, want it in place", c.text)
		}
	}
}

// TestInteger: integers int64 holds, and the numbers left to a full decoder.
func TestInteger(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"-7", -7, true},
		{"9223372036854775807", 9223372036854775807, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false}, {"01", 0, false}, {"1.0", 0, false}, {"1e3", 0, false}, {"-", 0, false}, {"x", 0, false},
	} {
		sc := New([]byte(c.text))
		var got int64
		if ok := sc.Integer(&got); ok != c.ok || ok && got != c.want {
			t.Errorf("%s: %d %v, want %d %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// TestArray: each element is read in turn; an array's punctuation is checked; what is no array is refused.
func TestArray(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		ok   bool
	}{
		{`[]`, 0, true}, {`[1, 2 ,3]`, 3, true}, {`[1,]`, 1, false}, {`[1 2]`, 1, false}, {`{}`, 0, false}, {`[`, 0, false},
	} {
		sc := New([]byte(c.text))
		n := 0
		ok := sc.Array(func() bool { n++; return sc.Skip() })
		if ok != c.ok || ok && n != c.n {
			t.Errorf("%s: %d elements %v, want %d %v", c.text, n, ok, c.n, c.ok)
		}
	}
}

// TestNewAtRefusesWhatTheWholeScanWould: a value read by a scanner made depth levels down refuses the
// nesting a scan of the whole text refuses there, and no less.
func TestNewAtRefusesWhatTheWholeScanWould(t *testing.T) {
	nested := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1))
	}
	for _, n := range []int{jsondepth.Max - 1, jsondepth.Max} {
		value := nested(n)
		whole := New([]byte(`{"params":` + string(value) + `}`))
		wholeOK := whole.Enter()
		if _, more, ok := whole.Key(); !ok || !more {
			t.Fatal("no params key")
		}
		wholeOK = wholeOK && whole.Skip()
		at := NewAt(value, 1)
		if got := at.Skip(); got != wholeOK {
			t.Errorf("%d levels: NewAt(…, 1) skips %v, the whole scan %v", n, got, wholeOK)
		}
		if top := New(value); !top.Skip() {
			t.Errorf("%d levels: New refuses what stands at the top", n)
		}
	}
}

// TestObject: each member's name is handed out in turn and its value read by the caller; an object's
// punctuation is checked; what is no object, or a name Key would not return, is refused.
func TestObject(t *testing.T) {
	for _, tc := range []struct {
		text string
		keys string
		ok   bool
	}{
		{`{}`, "", true},
		{` { "a" : 1 , "b":{"c":[2]} }`, "a,b", true},
		{`{"a":1,}`, "a", false},
		{`{"a":1 "b":2}`, "a", false},
		{`{"a\u0062":1}`, "", false},
		{`{"a":`, "a", false},
		{`[]`, "", false},
		{`null`, "", false},
	} {
		s := New([]byte(tc.text))
		var keys []string
		ok := s.Object(func(key []byte) bool {
			keys = append(keys, string(key))
			return s.Skip()
		})
		if got := strings.Join(keys, ","); ok != tc.ok || got != tc.keys {
			t.Errorf("%s: keys %q ok %v, want %q %v", tc.text, got, ok, tc.keys, tc.ok)
		}
	}
}

// TestNull: a null is read, and nothing else is.
func TestNull(t *testing.T) {
	for text, want := range map[string]bool{"null": true, " null": true, "nul": false, "{}": false, `"null"`: false} {
		s := New([]byte(text))
		if got := s.Null(); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// BenchmarkSkipToolOutput skips a tool's output as the logs hold it: 6 KB of lines, each ending in an
// escaped newline (Gemini CLI's second copy of a call, Codex's and Qwen Code's tool results).
func BenchmarkSkipToolOutput(b *testing.B) {
	benchSkip(b, `{"output":"`+strings.Repeat(`line of tool output that the agent read back into its context\n`, 100)+`","n":1}`)
}

// FuzzSkipString holds Skip's reading of a string to Measure's: the same strings refused, the same end,
// and nothing encoding/json finds invalid accepted.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\nb\tc\"d\\e\/f\bg\fh\ri"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\udc00x"`,
		`"a\x01b"`, "\"\xff\"", `"é😀"`, `"\q"`, `"\u12"`, `"abc`, `"a\`, `""`, `"` + strings.Repeat(`line\n`, 40) + `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if len(text) == 0 || text[0] != '"' {
			return
		}
		a, b := New(text), New(text)
		skipped := a.Skip()
		_, _, _, measured := b.Measure(nil)
		if skipped != measured || skipped && a.pos != b.pos {
			t.Fatalf("%q: Skip %v at %d, Measure %v at %d", text, skipped, a.pos, measured, b.pos)
		}
		if skipped && !json.Valid(text[:a.pos]) {
			t.Fatalf("%q: skipped, but not valid JSON", text[:a.pos])
		}
	})
}
