package session

import (
	"testing"

	"github.com/saverd/saverd/internal/deptest"
)

// adapters are what the session API must never link: the layers above it, which call it. Its errors are
// its own (Error, by Kind), which handlers answers with the wire's codes.
var adapters = []struct{ path, why string }{
	{"github.com/saverd/saverd/handlers", "the JSON-RPC methods, the adapter over the session API"},
	{"github.com/saverd/saverd/rpc", "the wire: framing, connections, error objects"},
	{"github.com/saverd/saverd/daemon", "the stdio and socket daemons"},
	{"github.com/saverd/saverd/replay", "the replay engine"},
	{"go.lsp.dev/jsonrpc2", "the wire's error codes"},
}

// TestSessionLinksNoAdapter: on every system saverd builds for, the session package links none of the
// layers that call it, however far down an import would bring one in.
func TestSessionLinksNoAdapter(t *testing.T) {
	for _, goos := range deptest.Systems {
		t.Run(goos, func(t *testing.T) {
			g := deptest.List(t, goos, "github.com/saverd/saverd/session")
			for path := range g.Packages {
				for _, a := range adapters {
					if deptest.Within(path, a.path) {
						t.Errorf("session links %s (%s): %s", path, a.why, g.Via(path))
					}
				}
			}
		})
	}
}
