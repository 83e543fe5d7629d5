package agentlogtest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/saverd/saverd/agentlog"
)

// The one-pass readers of the harness packages stand in for a decoder and must answer what it answers.
// Each package holds its reader to that per line (Agrees, or its own check where a line's answer is not
// one value) and per session (SameBothWays), with a switch that sends every line through the decoder.

// Agrees fails t when fast takes raw and answers otherwise than decode, or takes a line decode refuses;
// it reports whether fast took raw (a reader that is unsure leaves the line to the decoder).
func Agrees[T any](t testing.TB, raw []byte, fast func([]byte, *T) bool, decode func([]byte, *T) error) bool {
	t.Helper()
	var got T
	if !fast(raw, &got) {
		return false
	}
	var want T
	if err := decode(raw, &want); err != nil {
		t.Fatalf("%q: the one-pass reader took a line the decoder refuses (%v)", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\none-pass %+v\ndecoder  %+v", raw, got, want)
	}
	return true
}

// SameBothWays fails t for each input whose reading differs between the fast paths and the decoder:
// read runs once as it is and once with *decodeAll set (the package's switch that sends every line
// through the decoder), which is set back after.
func SameBothWays[R any](t testing.TB, inputs []string, decodeAll *bool, read func(string) (R, error)) {
	t.Helper()
	for _, in := range inputs {
		fast, err := read(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		*decodeAll = true
		slow, err := read(in)
		*decodeAll = false
		if err != nil {
			t.Fatalf("%s, every line decoded: %v", in, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast paths %+v\ndecoder    %+v", in, fast, slow)
		}
	}
}

// Scanned is what `saverd sessions` reads of a harness's logs: the records and the warnings.
type Scanned struct {
	Records  []agentlog.Record
	Warnings []string
}

// Scan reads files as `saverd sessions` does; no record at all is an error (a reading that finds
// nothing proves nothing).
func Scan(files []agentlog.File) (Scanned, error) {
	recs, warns := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) == 0 {
		return Scanned{}, fmt.Errorf("no records (warnings %q)", warns)
	}
	return Scanned{Records: recs, Warnings: warns}, nil
}

// LeftToTheDecoder fails t for each of lines (by a name saying what is odd in it) that fast takes: a
// one-pass reader leaves what it is unsure of to the decoder.
func LeftToTheDecoder[T any](t *testing.T, lines map[string]string, fast func([]byte, *T) bool) {
	t.Helper()
	for name, raw := range lines {
		t.Run(name, func(t *testing.T) {
			var got T
			if fast([]byte(raw), &got) {
				t.Errorf("%s: taken, want it left to the decoder", raw)
			}
		})
	}
}
