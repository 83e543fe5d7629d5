package paths

import (
	"path/filepath"
	"testing"
)

// TestDirs: each directory is $XDG_…_HOME/saverd when that is absolute, else under the home directory
// (a relative one is ignored, as the XDG base directory spec asks).
func TestDirs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct {
		env   string
		dir   func() (string, error)
		under string
	}{
		{"XDG_STATE_HOME", StateDir, ".local/state"},
		{"XDG_CONFIG_HOME", ConfigDir, ".config"},
		{"XDG_CACHE_HOME", CacheDir, ".cache"},
	} {
		for _, val := range []string{"", "relative/dir", "/abs/dir"} {
			t.Setenv(tc.env, val)
			want := filepath.Join(home, filepath.FromSlash(tc.under), "saverd")
			if val == "/abs/dir" {
				want = filepath.Join(val, "saverd")
			}
			if got, err := tc.dir(); err != nil || got != want {
				t.Errorf("%s=%q: %q, %v; want %q", tc.env, val, got, err, want)
			}
		}
	}
}
