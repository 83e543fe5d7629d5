// Package geminitest runs the real Gemini CLI offline for tests: the pinned @google/gemini-cli installed
// with npm, a HOME whose settings pick API-key auth (a base URL alone makes it a gateway, which headless
// runs refuse), trust the project (else --yolo is turned down) and send nothing anywhere (usage
// statistics, the update check), and GOOGLE_GEMINI_BASE_URL naming a scripted API (internal/geminiapi).
package geminitest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/clientrun"
)

// Version is the Gemini CLI these tests pin; protocol.md's Gemini CLI notes were observed with it.
const Version = "0.61.0"

// Binary is the gemini command, installed into ~/.cache/saverd-clients/gemini-cli-Version when missing.
func Binary(t testing.TB) string {
	return clientrun.Install(t, "gemini-cli-"+Version, "@google/gemini-cli@"+Version, func(dir string) string {
		return clientrun.Executable(filepath.Join(dir, "node_modules", ".bin", "gemini"))
	})
}

// Settings are ~/.gemini/settings.json.
const Settings = `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},` +
	`"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false}}`

// Setup writes home/.gemini's settings and trusted folders and returns the client, run in proj against
// baseURL (a geminiapi.Server's URL).
func Setup(t testing.TB, bin, home, proj, baseURL string) clientrun.Client {
	t.Helper()
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	trusted, _ := json.Marshal(map[string]string{proj: "TRUST_FOLDER"})
	for name, body := range map[string][]byte{"settings.json": []byte(Settings), "trustedFolders.json": trusted} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := append(clientrun.BaseEnv(home), "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL="+baseURL)
	return clientrun.Client{Bin: bin, Dir: proj, Env: env}
}
