package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/install/installtest"
)

// settingsStyles are settings files as people and their tools lay them out.
// structural, when set, is what removing saverd's entries alone gives back: an empty container the person
// had and install filled cannot be told from one install made, so only the install record (Uninstall)
// gives those files back byte for byte.
var settingsStyles = []struct{ name, text, structural string }{
	{name: "none", text: ""},
	{name: "empty object", text: "{}\n"},
	{name: "empty object, no newline", text: "{}"},
	{name: "two spaces", text: "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  }\n}\n"},
	{name: "four spaces", text: "{\n    \"model\": \"opus\",\n    \"env\": {\n        \"A\": \"1\"\n    }\n}\n"},
	{name: "tabs", text: "{\n\t\"model\": \"opus\",\n\t\"env\": {}\n}\n"},
	{name: "CRLF", text: "{\r\n  \"model\": \"opus\",\r\n  \"env\": {\r\n    \"A\": \"1\"\r\n  }\r\n}\r\n"},
	{name: "BOM", text: "\uFEFF{\n  \"model\": \"opus\"\n}\n"},
	{name: "one line", text: `{"model":"opus","env":{"A":"1"}}`},
	{name: "one line, spaced", text: `{ "model": "opus", "env": { "A": "1" } }` + "\n"},
	{name: "no final newline", text: "{\n  \"model\": \"opus\"\n}"},
	{name: "foreign hooks", text: installtest.ForeignSettings},
	{name: "foreign hooks, one line", text: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-me"}]}],"PostToolUse":[]},"statusLine":{"type":"command","command":"mine"}}`,
		structural: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-me"}]}]},"statusLine":{"type":"command","command":"mine"}}`},
	{name: "escapes kept", text: "{\n  \"name\": \"caf\\u00e9 \\/ x\",\n  \"n\": 1.50\n}\n"},
	{name: "empty hooks", text: "{\n  \"hooks\": {}\n}\n", structural: "{}\n"},
}

// TestInstallKeepsTheFilesLayout: install adds saverd's entries in the file's own layout (indentation,
// line ends, one line or many) and uninstall gives the file back byte for byte.
func TestInstallKeepsTheFilesLayout(t *testing.T) {
	for _, c := range settingsStyles {
		t.Run(c.name, func(t *testing.T) {
			in, err := MergeSettings("s", c.text, bin)
			if err != nil {
				t.Fatal(err)
			}
			body := strings.TrimPrefix(in.Text, "\uFEFF")
			if !json.Valid([]byte(body)) {
				t.Fatalf("install wrote invalid JSON:\n%s", in.Text)
			}
			if strings.HasPrefix(c.text, "\uFEFF") != strings.HasPrefix(in.Text, "\uFEFF") {
				t.Error("the BOM was not kept as it was")
			}
			if strings.Contains(c.text, "\r\n") && strings.Count(in.Text, "\n") != strings.Count(in.Text, "\r\n") {
				t.Errorf("a CRLF file got bare LF line ends:\n%q", in.Text)
			}
			if oneLine := c.text != "" && c.text != "{}" && c.text != "{}\n" && !strings.Contains(strings.TrimSpace(c.text), "\n"); oneLine {
				if strings.Contains(strings.TrimSpace(body), "\n") {
					t.Errorf("a one-line file was spread over lines:\n%s", in.Text)
				}
			} else if bad := misindented(body, unitOf(c.text)); bad != "" {
				t.Errorf("a line not indented in the file's unit %q: %q\n%s", unitOf(c.text), bad, in.Text)
			}
			again, err := MergeSettings("s", in.Text, bin)
			if err != nil || len(again.Changes) != 0 || again.Text != in.Text {
				t.Errorf("a second install changed %q (%v)", again.Changes, err)
			}
			out, err := RemoveSettings("s", in.Text)
			if err != nil {
				t.Fatal(err)
			}
			want := c.text
			switch {
			case c.structural != "":
				want = c.structural
			case want == "":
				want = "{}\n" // what apply removes: install made the file
			}
			if out.Text != want {
				t.Errorf("uninstall after install:\n%q\nwant\n%q", out.Text, want)
			}
		})
	}
}

// TestUninstallKeepsLaterEdits: what the person changed after install stays, byte for byte, and only
// saverd's entries go.
func TestUninstallKeepsLaterEdits(t *testing.T) {
	orig := "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"notify-me\" }]\n      }\n    ]\n  }\n}\n"
	in, err := MergeSettings("s", orig, bin)
	if err != nil {
		t.Fatal(err)
	}
	// The person adds a setting of their own and a hook of their own beside saverd's.
	edited := strings.Replace(in.Text, "\"model\": \"opus\",", "\"model\": \"opus\",\n  \"theme\":   \"dark\" ,", 1)
	edited = strings.Replace(edited, "\"command\": \"notify-me\" }", "\"command\": \"notify-me\" }, {\"type\":\"command\",\"command\":\"beep\"}", 1)
	if edited == in.Text || !json.Valid([]byte(edited)) {
		t.Fatalf("the test's edit did not apply:\n%s", edited)
	}
	out, err := RemoveSettings("s", edited)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(orig, "\"model\": \"opus\",", "\"model\": \"opus\",\n  \"theme\":   \"dark\" ,", 1)
	want = strings.Replace(want, "\"command\": \"notify-me\" }", "\"command\": \"notify-me\" }, {\"type\":\"command\",\"command\":\"beep\"}", 1)
	if out.Text != want {
		t.Errorf("uninstall after the person's edits:\n%s\nwant\n%s", out.Text, want)
	}
}

// TestPatchTextUpdatesInPlace: a moved binary changes the command strings where they stand.
func TestPatchTextUpdatesInPlace(t *testing.T) {
	in, err := MergeSettings("s", "{\n    \"model\": \"opus\"\n}\n", bin)
	if err != nil {
		t.Fatal(err)
	}
	moved, err := MergeSettings("s", in.Text, "/elsewhere/saverd")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.ReplaceAll(moved.Text, "/elsewhere/saverd", bin), in.Text; got != want {
		t.Errorf("a moved binary changed more than its path:\n%s\nwant\n%s", moved.Text, in.Text)
	}
}

// unitOf is the indentation unit a test file uses.
func unitOf(text string) string {
	switch {
	case strings.Contains(text, "\n\t"):
		return "\t"
	case strings.Contains(text, "\n    \"") && !strings.Contains(text, "\n  \""):
		return "    "
	}
	return "  "
}

// misindented is the first line whose indentation is not a whole number of units, or "".
func misindented(text, unit string) string {
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		ws := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if strings.ReplaceAll(ws, unit, "") != "" {
			return line
		}
	}
	return ""
}

// TestUninstallGivesBackEveryLayout: through the files, uninstall after install gives back every
// settings file byte for byte — the ones removal alone cannot (an empty container install filled) too,
// from install's record — and the command file install wrote goes.
func TestUninstallGivesBackEveryLayout(t *testing.T) {
	for _, c := range settingsStyles {
		t.Run(c.name, func(t *testing.T) {
			home := installtest.Sandbox(t)
			path := filepath.Join(home, "claude", "settings.json")
			if c.text != "" {
				installtest.Write(t, path, c.text, 0o644)
			}
			o := install.Options{Target: Harness{}, Scope: "user", Bin: bin}
			if _, err := install.Install(o); err != nil {
				t.Fatal(err)
			}
			if _, err := install.Install(o); err != nil { // a second install changes nothing, the record stays
				t.Fatal(err)
			}
			cmd := filepath.Join(home, "claude", "commands", "saver.md")
			if installtest.Read(t, cmd) != CommandFile {
				t.Fatal("the command file was not written")
			}
			if _, err := install.Uninstall(o); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			switch {
			case c.text == "" && !os.IsNotExist(err):
				t.Errorf("install made the file; uninstall left it: %q", got)
			case c.text != "" && string(got) != c.text:
				t.Errorf("uninstall left\n%q\nwant\n%q", got, c.text)
			}
			if _, err := os.Stat(filepath.Dir(cmd)); !os.IsNotExist(err) {
				t.Errorf("the command file or its directory is still there: %v", err)
			}
		})
	}
}

// TestUninstallAfterTheirEdits: a file the person changed after install loses saverd's entries only,
// and install's record is not used for it.
