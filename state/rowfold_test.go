package state

import "testing"

// TestRowFoldKey: a row folds under FoldKey(Tool, Key) whatever fold key it was given: its own only while
// that says so, the concatenation otherwise.
func TestRowFoldKey(t *testing.T) {
	for _, c := range []struct {
		name, tool, key, fold string
	}{
		{"its own", "Bash", "test:npm test", "Bash\ttest:npm test"},
		{"none", "Bash", "test:npm test", ""},
		{"another key", "Bash", "test:go test", "Bash\ttest:npm test"},
		{"another tool", "Read", "test:npm test", "Bash\ttest:npm test"},
		{"another separator", "Bash", "test:npm test", "Bash test:npm test"},
		{"longer", "Bash", "x", "Bash\txy"},
		{"empty key", "Bash", "", "Bash\t"},
	} {
		r := Row{Tool: c.tool, Key: c.key}
		r.SetFoldKey(c.fold)
		if got, want := r.foldKey(), FoldKey(c.tool, c.key); got != want {
			t.Errorf("%s: folds under %q, want %q", c.name, got, want)
		}
		folded := map[string]Folded{}
		FoldRows(folded, []Row{r})
		if _, ok := folded[FoldKey(c.tool, c.key)]; !ok || len(folded) != 1 {
			t.Errorf("%s: folded into %v", c.name, folded)
		}
	}
}
