package agentlogtest

import (
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// TestAgreesAndSameBothWays: the two checks fail on a reader that answers otherwise than its decoder,
// and pass on one that agrees or leaves the line alone.
func TestAgreesAndSameBothWays(t *testing.T) {
	decode := func(raw []byte, n *int) (err error) { *n, err = strconv.Atoi(string(raw)); return err }
	good := func(raw []byte, n *int) bool { return decode(raw, n) == nil }
	unsure := func([]byte, *int) bool { return false }
	off := func(raw []byte, n *int) bool { *n = len(raw) + 100; return true }
	for _, c := range []struct {
		name     string
		fast     func([]byte, *int) bool
		raw      string
		took, ok bool
	}{
		{"agrees", good, "42", true, true},
		{"leaves it", unsure, "42", false, true},
		{"answers otherwise", off, "42", true, false},
		{"takes what the decoder refuses", off, "x", true, false},
	} {
		ft := &fakeT{}
		took := runFatal(func() bool { return Agrees(ft, []byte(c.raw), c.fast, decode) })
		if took != c.took || ft.failed == c.ok {
			t.Errorf("%s: took %v, failed %v", c.name, took, ft.failed)
		}
	}
	var decodeAll bool
	read := func(in string) (string, error) {
		if in == "bad" {
			return "", errors.New("unreadable")
		}
		return fmt.Sprint(in, decodeAll && in == "differs"), nil
	}
	ft := &fakeT{}
	runFatal(func() bool { SameBothWays(ft, []string{"a", "b"}, &decodeAll, read); return true })
	if ft.failed || decodeAll {
		t.Errorf("two readings alike: failed %v, decodeAll left %v", ft.failed, decodeAll)
	}
	for _, in := range []string{"differs", "bad"} {
		ft := &fakeT{}
		runFatal(func() bool { SameBothWays(ft, []string{"a", in}, &decodeAll, read); return true })
		if !ft.failed {
			t.Errorf("%s: not failed", in)
		}
	}
}

// fakeT records a failure; its Fatalf stops the check as testing.T's does (runFatal recovers it).
type fakeT struct {
	testing.TB
	failed bool
}

type stopped struct{}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic(stopped{}) }

// runFatal runs check, and reports true for a check a Fatalf stopped.
func runFatal(check func() bool) (took bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			took = true
		}
	}()
	return check()
}
