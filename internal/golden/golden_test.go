package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps whether Errorf was called.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "x.golden"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		got  string
		fail bool
	}{{"a\nb\n", false}, {"a\nc\n", true}, {"a\nb\nextra", true}, {"a\n", true}} {
		r := &recorder{TB: t}
		Check(r, "x.golden", tc.got)
		if r.failed != tc.fail {
			t.Errorf("Check(%q) failed = %v, want %v", tc.got, r.failed, tc.fail)
		}
	}
}
