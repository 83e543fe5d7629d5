package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jsondepth"
)

// playOpts are the replay goldens' options: every view, so a difference anywhere shows.
func playOpts(t *testing.T) Options {
	return Options{Show: []string{"band", "pane", "debug"}, Width: 90, WriteRoot: t.TempDir()}
}

// playWhole plays file read whole, through a pipe as a replay of one reads it.
func playWhole(t *testing.T, file string, opt Options) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		f, err := os.Open(file)
		if err == nil {
			_, _ = io.Copy(w, f)
			f.Close()
		}
		w.Close()
	}()
	src, err := Open(r, file)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := src.(*scriptCursor); !ok {
		t.Fatalf("a pipe is read as %T, want it read whole", src)
	}
	var out bytes.Buffer
	if err := Play(context.Background(), src, opt, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// replayFile plays file as `saverd replay FILE` does: opened (Open, two passes of a regular file) and
// played.
func replayFile(file string, opt Options, out io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := Open(f, file)
	if err != nil {
		return err
	}
	return Play(context.Background(), src, opt, out)
}

// scanned is file's first pass (scanFile) through a reader of bufSize bytes; the file is closed when the
// test ends.
func scanned(t *testing.T, file string, bufSize int) *fileSource {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	src, err := scanFile(f, file, bufSize)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// playPasses plays file in two passes, through a reader of bufSize bytes.
func playPasses(t *testing.T, file string, bufSize int) string {
	t.Helper()
	src := scanned(t, file, bufSize)
	var out bytes.Buffer
	if err := Play(context.Background(), src, playOpts(t), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestTwoPassesPlayAsOne: a recording read in two passes plays exactly what it plays read whole, on the
// replay recordings and on a long one whose fork replies come after the requests they answer, through
// the reader's usual buffer and through one smaller than every line.
func TestTwoPassesPlayAsOne(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	long := filepath.Join(t.TempDir(), "long.ndjson")
	writeFile(t, long, longRecording(t, 3_000))
	for _, file := range append(files, long) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			whole := playWhole(t, file, playOpts(t))
			for _, size := range []int{lineBuffer, 16} {
				if got := playPasses(t, file, size); got != whole {
					t.Errorf("two passes (buffer %d) printed %d bytes, whole %d; first difference at %d",
						size, len(got), len(whole), firstDiff(got, whole))
				}
			}
			if file == long && !strings.Contains(whole, "speeding up the login page") {
				t.Error("the long recording's judge reply, recorded after its request, was not played")
			}
		})
	}
}

func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// longRecording is testdata/replay/adopt.ndjson with calls tool.calls between its session.start and its
// prompt, of every shape a line takes (a plain request, a recording line, params first, a notification,
// params the one-pass reader refuses, a huge output, a malformed frame, a blank and a CRLF line), and
// its two fork replies moved to the end, after the requests whose forks they answer.
func longRecording(t *testing.T, calls int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "adopt.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	adopt := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(adopt) != 13 || !strings.Contains(adopt[4], `"id":7,"result"`) || !strings.Contains(adopt[7], `"id":8,"result"`) {
		t.Fatal("adopt.ndjson changed: update longRecording")
	}
	var b strings.Builder
	for _, l := range adopt[:4] {
		b.WriteString(l + "\n")
	}
	for i := range calls {
		text := strings.Repeat("x", 100+i%50)
		if i == calls/3 {
			text = strings.Repeat("a huge tool output ", 100_000) // 1.9 MB: past the buffer, and past maxKept
		}
		p, _ := json.Marshal(map[string]any{"sessionId": "late", "at": 1001 + i*3000/calls, "ms": 40,
			"event":  map[string]any{"tool": "Bash", "tool_use_id": fmt.Sprintf("t%d", i), "command": fmt.Sprintf("cat src/file%d.ts", i%40)},
			"result": map[string]any{"text": text}})
		id := 100 + i
		switch {
		case i%97 == 5:
			fmt.Fprintf(&b, `{"dir":"in","msg":{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}}`+"\n", id, p)
		case i%101 == 7:
			fmt.Fprintf(&b, `{"params":%s,"method":"tool.call","id":%d,"jsonrpc":"2.0"}`+"\n", p, id)
		case i%89 == 3:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"tool.call","params":%s}  `+"\r\n", p)
		case i%113 == 11:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":{"sessionId":"late","ms":"slow","event":{"tool":"Bash","tool_use_id":"s%d","command":"ls"},"result":{"text":"a"}}}`+"\n", id, i)
		case i == calls/2:
			b.WriteString(`{"dir":"in","raw":"{\"jsonrpc\":\"2.0\",\"id\":` + fmt.Sprint(id) + `,\"method\":\"tool.c"}` + "\n\n")
		default:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":%s}`+"\n", id, p)
		}
	}
	b.WriteString(adopt[5] + "\n" + adopt[6] + "\n")
	for _, l := range adopt[8:] {
		b.WriteString(l + "\n")
	}
	b.WriteString(adopt[4] + "\n" + adopt[7]) // no newline at the end
	return b.String()
}

// TestReplayBadLineLate: a bad line anywhere, however late in a long recording, stops the replay before
// it plays anything, naming the line as reading the recording whole names it.
func TestReplayBadLineLate(t *testing.T) {
	good := longRecording(t, 2_000)
	lines := strings.Count(good, "\n") + 1
	cases := []struct {
		name, bad, say string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{`, "not JSON"},
		{"msg not a message", `{"dir":"in","msg":[1]}`, "msg is not a JSON-RPC message"},
		{"dir", `{"dir":"up","msg":{"jsonrpc":"2.0","id":1,"method":"x"}}`, "dir must be in or out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "late.ndjson")
			writeFile(t, file, good+"\n"+c.bad+"\n"+`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`+"\n")
			var out bytes.Buffer
			err := replayFile(file, Options{Show: []string{"pane"}, Width: 100, WriteRoot: t.TempDir()}, &out)
			want := fmt.Sprintf("%s:%d: %s", file, lines+1, c.say)
			if err == nil || out.Len() != 0 || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("printed %d bytes, error %v; want nothing, %q", out.Len(), err, want)
			}
			f, _ := os.Open(file)
			defer f.Close()
			if _, whole := readScript(f, file); whole == nil || whole.Error() != err.Error() {
				t.Fatalf("read whole: %v; two passes: %v", whole, err)
			}
		})
	}
}

// TestLineReader: lines read through a buffer smaller than some of them are the text split at '\n' as
// readScript splits it, numbered alike, every byte counted.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("y", 40)
	cases := []string{
		"", "\n", "a", "a\n", "a\nb", "\n\n\nc\n", "a\r\nb\r\n",
		strings.Repeat("z", 15) + "\n" + strings.Repeat("z", 16) + "\n" + strings.Repeat("z", 17),
		long + "\n" + long, "short\n" + long + "\nshort\n", long + long + long,
	}
	for _, text := range cases {
		want := strings.Split(text, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		lr := newLineReader(strings.NewReader(text), 16)
		var got []string
		for {
			line, ok := lr.next()
			if !ok {
				break
			}
			got = append(got, strings.TrimSuffix(string(line), "\n"))
			if lr.line != len(got) {
				t.Errorf("%q: line %d numbered %d", text, len(got), lr.line)
			}
		}
		if lr.err != nil || lr.read != int64(len(text)) || !slices.Equal(got, want) {
			t.Errorf("%q: lines %q (read %d, err %v), want %q", text, got, lr.read, lr.err, want)
		}
	}
}

// TestLineReaderLetsGoOfAHugeLine: a line past maxKept does not keep its buffer for the rest.
func TestLineReaderLetsGoOfAHugeLine(t *testing.T) {
	lr := newLineReader(strings.NewReader(strings.Repeat("h", 2*maxKept)+"\nsmall\n"), 16)
	if l, ok := lr.next(); !ok || len(l) != 2*maxKept+1 {
		t.Fatalf("huge line: %d bytes, %v", len(l), ok)
	}
	if l, ok := lr.next(); !ok || string(l) != "small\n" || cap(lr.long) > maxKept {
		t.Fatalf("next line %q, %v, buffer kept %d", l, ok, cap(lr.long))
	}
}

// TestReplayLongLine: a line longer than the reader's buffer plays through the command, as read whole.
func TestReplayLongLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "long-line.ndjson")
	text := strings.Repeat("0123456789", 3*lineBuffer/10)
	writeFile(t, file, `{"jsonrpc":"2.0","id":1,"method":"session.start","params":{"sessionId":"s","cwd":"/p","at":1000,"usage":{"window":200000}}}
{"jsonrpc":"2.0","id":2,"method":"tool.call","params":{"sessionId":"s","at":2000,"ms":5,"event":{"tool":"Bash","tool_use_id":"t1","command":"cat big.log"},"result":{"text":"`+text+`"}}}
{"jsonrpc":"2.0","id":3,"method":"view.band","params":{"sessionId":"s"}}
`)
	var out bytes.Buffer
	if err := replayFile(file, Options{Show: []string{"debug"}, Width: 100, WriteRoot: t.TempDir()}, &out); err != nil {
		t.Fatal(err)
	}
	want := playWhole(t, file, Options{Show: []string{"debug"}, Width: 100, WriteRoot: t.TempDir()})
	if out.String() != want || !strings.Contains(want, `"id":3,`) || !strings.Contains(want, fmt.Sprintf("%dch total", len(text))) {
		t.Fatalf("replay printed:\n%s\nread whole, the same replay prints:\n%s", out.String(), want)
	}
}

// TestSecondPassMeetsAChangedFile: a recording changed between the passes is an error, not a replay of
// something else.
func TestSecondPassMeetsAChangedFile(t *testing.T) {
	good := longRecording(t, 50)
	cases := []struct {
		name, now, say string
	}{
		{"shorter", good[:strings.LastIndex(good[:len(good)/2], "\n")+1], "changed under the replay"},
		{"a bad line", "not json" + good[8:], ":1: changed since it was checked: not JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "rec.ndjson")
			writeFile(t, file, good)
			src := scanned(t, file, lineBuffer)
			writeFile(t, file, c.now)
			err := Play(context.Background(), src, playOpts(t), io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.say) {
				t.Fatalf("play of a changed file: %v, want %q", err, c.say)
			}
		})
	}
}

// TestReadNowAgrees: a line whose params are read as it is read (the second pass) is the request reading
// it first and peeking it later makes, on lines of each shape and every line of the recordings.
func TestReadNowAgrees(t *testing.T) {
	p := `{"sessionId":"s","at":12,"ms":3,"event":{"tool":"Bash","tool_use_id":"t","command":"ls"},"result":{"text":"x"}}`
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tool.call","params":` + p + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"tool.call","params": ` + p + " \t}  ",
		`{"params":` + p + `,"jsonrpc":"2.0","id":1,"method":"tool.call"}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":` + p + `,"id":1}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":` + p + `,"params":` + p + `}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":{"sessionId":"s","ms":"slow"}}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":{"sessionId":"s","SessionId":"t"}}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":` + p + `} x`,
		`{"jsonrpc":"2.0","method":"tool.call","params":` + p + `}}`,
		`{"jsonrpc":"2.0","method":"tool.call","params":` + p[:len(p)-1] + `}`,
		`{"jsonrpc":"2.0","method":"tool\u002ecall","params":` + p + `}`,
		`{"jsonrpc":"2.0","method":"view.band","params":{"sessionId":"s","at":3}}`,
		`{"jsonrpc":"2\u002e0","id":2,"method":"tool.call","params":null}`,
	}
	for _, n := range []int{jsondepth.Max - 4, jsondepth.Max - 3, jsondepth.Max - 2, jsondepth.Max - 1} {
		// An event member nested to and past the bound, which holds at the params' depth in the line.
		deep := `{"sessionId":"s","at":12,"ms":3,"event":{"tool":"Bash","tool_use_id":"t","x":` + nested(n) + `},"result":{"text":"x"}}`
		lines = append(lines, `{"jsonrpc":"2.0","id":1,"method":"tool.call","params":`+deep+`}`,
			`{"jsonrpc":"2.0","method":"tool.call","params":`+deep+`,"id":1}`)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	lines = append(lines, strings.Split(longRecording(t, 300), "\n")...)
	atOnce := 0
	for _, line := range lines {
		text := bytes.TrimSpace([]byte(line))
		if len(text) == 0 {
			continue
		}
		later, errLater := readLine(text, map[string]string{})
		now, errNow := readLineNow(text, map[string]string{}, true)
		if fmt.Sprint(errLater) != fmt.Sprint(errNow) {
			t.Errorf("%s\n  read later: %v\n  read now:   %v", line, errLater, errNow)
			continue
		}
		if now.req.read != nil {
			atOnce++
		}
		later.req.peek()
		now.req.peek()
		// Both reads are of the same params (compared below): compare that each was read, not the
		// reader's values, which may come from a pool.
		if (later.req.read == nil) != (now.req.read == nil) {
			t.Errorf("%s\n  read later: %v\n  read now:   %v", line, later.req.read, now.req.read)
		}
		later.req.read, now.req.read = nil, nil
		if !reflect.DeepEqual(later, now) {
			t.Errorf("%s\n  read later: %+v\n  read now:   %+v", line, later, now)
		}
	}
	if atOnce < 250 {
		t.Errorf("%d lines had their params read at once", atOnce)
	}
}

// TestFirstPassAllocatesNothingPerLine: the first pass allocates as much for a long recording as for a
// short one.
func TestFirstPassAllocatesNothingPerLine(t *testing.T) {
	allocs := map[int]float64{}
	for _, calls := range []int{200, 4_000} {
		var b strings.Builder
		for i := range calls {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tool.call","params":{"sessionId":"s","at":%d,"ms":4,"event":{"tool":"Bash","tool_use_id":"t%d","command":"ls"},"result":{"text":"out"}}}`+"\n", i, i, i)
		}
		file := filepath.Join(t.TempDir(), "calls.ndjson")
		writeFile(t, file, b.String())
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		allocs[calls] = testing.AllocsPerRun(3, func() {
			if _, err := scanFile(f, file, lineBuffer); err != nil {
				t.Fatal(err)
			}
		})
		f.Close()
	}
	if allocs[4_000] > allocs[200] {
		t.Errorf("first pass: %v allocations for 200 calls, %v for 4000", allocs[200], allocs[4_000])
	}
}

// TestSecondPassOwnsWhatOutlivesALine: the reader's buffer is reused line after line, so what a request
// may keep past its line (params its handler reads, its id) and the fork replies are copies of their own.
func TestSecondPassOwnsWhatOutlivesALine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rec.ndjson")
	writeFile(t, file, longRecording(t, 40))
	src := scanned(t, file, 16) // every line gathered into one reused buffer
	type kept struct{ slice, was []byte }
	var all []kept
	keep := func(b []byte) { all = append(all, kept{b, bytes.Clone(b)}) }
	for _, fork := range src.forkReplies() {
		keep(fork.msg.ID)
		keep(fork.msg.Result)
	}
	for {
		e, ok := src.next()
		if !ok {
			break
		}
		if e.kind == entryRequest && e.req.read == nil {
			keep(e.req.ID)
			keep(e.req.Params)
		}
	}
	if err := src.err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range all {
		if !bytes.Equal(k.slice, k.was) {
			t.Errorf("%q became %q when the next lines were read", k.was, k.slice)
		}
	}
	if len(all) < 10 {
		t.Fatalf("only %d members checked", len(all))
	}
}
