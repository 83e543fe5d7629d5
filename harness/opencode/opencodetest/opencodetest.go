// Package opencodetest runs the real OpenCode offline for tests: the pinned opencode-ai installed with
// npm (its native binary comes in an optional npm package), a HOME whose config names one custom
// provider — a scripted OpenAI-compatible API (internal/chatapi) — with prices, so OpenCode computes its
// own cost, and nothing fetched: no model catalog, no update check, no plugin dependency install.
package opencodetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/saverd/saverd/internal/clientrun"
)

// Version is the OpenCode these tests pin; protocol.md's OpenCode notes were observed with it.
const Version = "1.18.33"

// Binary is the opencode binary, installed into ~/.cache/saverd-clients/opencode-ai-Version when missing.
func Binary(t testing.TB) string {
	return clientrun.Install(t, "opencode-ai-"+Version, "opencode-ai@"+Version, func(dir string) string {
		return clientrun.Executable(filepath.Join(dir, "node_modules", "opencode-ai", "bin", "opencode.exe"))
	})
}

// Price is the model's price the config gives, in USD per million tokens: what OpenCode prices each call
// at (input, output with reasoning, cache read, cache write).
var Price = struct{ Input, Output, CacheRead, CacheWrite float64 }{1.0, 2.0, 0.1, 1.25}

// config is ~/.config/opencode/opencode.json: the scripted API as provider "mock", model mock-model.
const config = `{"$schema":"https://opencode.ai/config.json",
 "provider":{"mock":{"npm":"@ai-sdk/openai-compatible","name":"Mock LLM","options":{"baseURL":%q,"apiKey":"sk-mock"},
  "models":{"mock-model":{"name":"Mock Model","limit":{"context":128000,"output":8192},
   "cost":{"input":%g,"output":%g,"cache_read":%g,"cache_write":%g}}}}},
 "model":"mock/mock-model","small_model":"mock/mock-model"}`

// Setup writes home's OpenCode config and returns the client, run in proj against baseURL (a
// chatapi.Server's URL). OpenCode installs @opencode-ai/plugin from npm into every config directory at
// start unless the directory looks installed already; an empty node_modules/ and a package.json and lock
// naming the package make it so (nothing there needs the real package).
func Setup(t testing.TB, bin, home, proj, baseURL string) clientrun.Client {
	t.Helper()
	dir := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o700); err != nil {
		t.Fatal(err)
	}
	dep := `{"@opencode-ai/plugin":"` + Version + `"}`
	for name, body := range map[string]string{
		"opencode.json":     fmt.Sprintf(config, baseURL, Price.Input, Price.Output, Price.CacheRead, Price.CacheWrite),
		"package.json":      `{"dependencies":` + dep + `}`,
		"package-lock.json": `{"lockfileVersion":3,"packages":{"":{"dependencies":` + dep + `}}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := append(clientrun.BaseEnv(home), "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1")
	return clientrun.Client{Bin: bin, Dir: proj, Env: env}
}
