package rules

import "testing"

func TestPresentIn(t *testing.T) {
	bullet := Artifact{Mode: ModeAppend, Content: "\n## ContextSaver\n- Run only the auth tests.\n"}
	skill := Artifact{Mode: ModeWrite, Content: "---\nname: \"auth\"\ndescription: \"Auth\"\n---\n\nRun only the auth tests,\nthen stop.\n"}
	allow := Artifact{Mode: ModeMergeSettings, Content: "Bash(bun test:*)"}
	cases := []struct {
		name     string
		a        Artifact
		existing string
		want     bool
	}{
		{"the same bullet", bullet, "# Notes\n\n## ContextSaver\n- Run only the auth tests.\n", true},
		{"another marker, case and stop", bullet, "* run  only the AUTH tests\n", true},
		{"a bullet elsewhere in the file still counts", bullet, "## Testing\n- run only the auth tests\n", true},
		{"a longer rule is another rule", bullet, "- Run only the auth tests, then lint\n", false},
		{"a CRLF file", bullet, "## ContextSaver\r\n- Run only the auth tests.\r\n", true},
		{"an empty file", bullet, "", false},
		{"non-ASCII space and case", Artifact{Mode: ModeAppend, Content: "\n## ContextSaver\n- Lis les journaux Über grep\n"},
			"-\u00a0lis les journaux\u00a0ÜBER grep.\n", true},
		{"the skill's body, rewrapped", skill, "---\nname: other\n---\nRun only the auth tests, then stop.\n", true},
		{"another skill", skill, "---\nname: auth\n---\nRun everything.\n", false},
		{"the rule allowed", allow, `{"permissions":{"allow":["Read(*)","Bash(bun test:*)"]}}`, true},
		{"not allowed yet", allow, `{"permissions":{"allow":["Read(*)"]}}`, false},
		{"denied is not allowed", allow, `{"permissions":{"deny":["Bash(bun test:*)"]}}`, false},
		{"settings that do not parse", allow, `{"permissions": // x`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PresentIn(c.a, c.existing); got != c.want {
				t.Fatalf("PresentIn = %v, want %v", got, c.want)
			}
		})
	}
}
