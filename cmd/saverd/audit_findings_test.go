package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// labelledLog writes one labelled session as its harness's log and returns the file.
func labelledLog(t *testing.T, name string) string {
	t.Helper()
	s := readLabelled(t, filepath.Join("testdata", "labelled", name+".json"))
	return s.write(t, t.TempDir(), name)
}

// TestAuditFindings: a session with real waste audits with its findings — rows, cost, fix — without a
// model, and the pane shows them as cards; a session of look-alikes names none.
func TestAuditFindings(t *testing.T) {
	path := labelledLog(t, "builds-back-to-back")
	code, out, errOut := runAuditTest(t, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "audit-findings.golden", []byte(strings.ReplaceAll(out, path, "builds-back-to-back.jsonl")))

	code, out, errOut = runAuditTest(t, labelledLog(t, "lookalike-edits"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"No wasters found yet", "FINDINGS  found in the rows, no model asked\n  none:",
		"2× Read /home/dev/src/shop/src/discount.ts:- · 0s · 2500 chars (≈625 tokens) · 1 re-read after an edit to it"} {
		if !strings.Contains(out, want) {
			t.Errorf("the look-alikes' audit lacks %q:\n%s", want, out)
		}
	}
	for _, never := range []string{"TodoWrite", "Edit ", "Write "} {
		if strings.Contains(out[strings.Index(out, "REPEATED CALLS"):strings.Index(out, "LARGEST")], never) {
			t.Errorf("REPEATED CALLS lists %q, which is no repeat:\n%s", never, out)
		}
	}
}

// TestAuditFindingsJudge: with --judge the judge's findings stand beside the detectors': one that names
// the same behaviour confirms it, one no detector made is listed as the judge's only, and the JSON says
// which.
func TestAuditFindingsJudge(t *testing.T) {
	path := labelledLog(t, "builds-back-to-back")
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	reply, _ := json.Marshal(map[string]any{"focus": "a build", "time": "four builds", "context": "a listing", "findings": []any{
		map[string]any{"id": "execution:rebuild-unchanged", "category": "execution", "kind": "Claude keeps rebuilding with nothing changed",
			"evidence": []string{"r4", "r5"}, "signature": map[string]any{"tool": "Bash", "key": "build:npm run build"},
			"why": "two builds back to back", "alternative": "build once after an edit", "confidence": 0.9},
		map[string]any{"id": "reading:package-json-first", "category": "reading", "kind": "Claude keeps opening package.json before asking",
			"evidence": []string{"r3"}, "signature": nil, "why": "the user's correction said not to", "alternative": "ask first", "confidence": 0.6},
	}})
	result, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": string(reply),
		"session_id": "fork-1", "usage": map[string]any{"input_tokens": 100, "output_tokens": 30}})
	file := filepath.Join(dir, "result.json")
	if err := os.WriteFile(file, result, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SAVERD_JUDGE_CMD", "cat "+file)
	code, text, errOut := runAuditTest(t, path, "--judge")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"the judge's beside them", "judge: confirmed (execution:rebuild-unchanged)", "judge: not reported",
		"Claude keeps opening package.json before asking", "judge only: no rule above names it"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	code, out, errOut := runAuditTest(t, path, "--judge", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Audits []struct {
			Findings []struct {
				Source      string   `json:"source"`
				ID          string   `json:"id"`
				Rows        []string `json:"rows"`
				Confirmed   *bool    `json:"confirmed"`
				ConfirmedBy string   `json:"confirmedBy"`
				Cost        *struct {
					Ms    int64 `json:"ms"`
					Chars int64 `json:"chars"`
				} `json:"cost"`
			} `json:"findings"`
		} `json:"audits"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Audits) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	fs := rep.Audits[0].Findings
	if len(fs) != 4 {
		t.Fatalf("findings %+v, want the three detectors' and the judge's own", fs)
	}
	build := fs[0]
	if build.Source != "rerun" || strings.Join(build.Rows, " ") != "r4 r5 r6 r7" || build.Confirmed == nil || !*build.Confirmed ||
		build.ConfirmedBy != "execution:rebuild-unchanged" || build.Cost == nil || build.Cost.Ms != 62_400 || build.Cost.Chars != 4900 {
		t.Errorf("the builds' finding %+v (cost %+v): want r4-r7, confirmed, the three re-runs' 62.4s and 4900 chars", build, build.Cost)
	}
	if last := fs[3]; last.Source != "judge" || last.ID != "reading:package-json-first" || last.Confirmed != nil {
		t.Errorf("the judge's own finding %+v", last)
	}
}
