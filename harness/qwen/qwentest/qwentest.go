// Package qwentest runs the real Qwen Code offline for tests: the pinned @qwen-code/qwen-code installed
// with npm, a HOME whose settings send nothing anywhere, and the OpenAI-compatible endpoint of a
// scripted API (internal/chatapi) given through the environment, as Qwen Code takes it.
package qwentest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/clientrun"
)

// Version is the Qwen Code these tests pin; protocol.md's Qwen Code notes were observed with it.
const Version = "0.24.4"

// Binary is the qwen command, installed into ~/.cache/saverd-clients/qwen-code-Version when missing.
func Binary(t testing.TB) string {
	return clientrun.Install(t, "qwen-code-"+Version, "@qwen-code/qwen-code@"+Version, func(dir string) string {
		return clientrun.Executable(filepath.Join(dir, "node_modules", ".bin", "qwen"))
	})
}

// Settings turn off what would reach the network (the usage statistics upload, the update check) and
// pick the OpenAI-compatible auth the environment configures.
const Settings = `{"privacy":{"usageStatisticsEnabled":false},"general":{"enableAutoUpdate":false},` +
	`"security":{"auth":{"selectedType":"openai"}},"model":{"name":"mock-model"}}`

// Setup writes home/.qwen/settings.json and returns the client, run in proj against baseURL (a
// chatapi.Server's URL) with model mock-model.
func Setup(t testing.TB, bin, home, proj, baseURL string) clientrun.Client {
	t.Helper()
	dir := filepath.Join(home, ".qwen")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(Settings), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(clientrun.BaseEnv(home), "OPENAI_BASE_URL="+baseURL, "OPENAI_API_KEY=sk-mock", "OPENAI_MODEL=mock-model",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
	return clientrun.Client{Bin: bin, Dir: proj, Env: env}
}
