// Package testfake holds the in-memory stand-ins the tests of session and handlers share: a registry and
// a log buffer. It imports nothing of saverd, so session's own (in-package) tests can import it; a fake
// that needs session's types (a Host) cannot live here and stays with each package's tests.
package testfake

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Registry is an in-memory per-project registry (session.Registry), each value stored as the disk store
// would give it back: through JSON.
type Registry struct{ Values map[string]any }

// NewRegistry is an empty Registry.
func NewRegistry() *Registry { return &Registry{Values: map[string]any{}} }

// Get is the value stored under key, nil when there is none.
func (m *Registry) Get(key string) (any, error) { return m.Values[key], nil }

// Update stores what merge makes of key's value, round-tripped through JSON as the disk store does;
// merge's error stores nothing.
func (m *Registry) Update(key string, merge func(any) (any, error)) error {
	v, err := merge(m.Values[key])
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var back any
	if err := json.Unmarshal(b, &back); err != nil {
		return err
	}
	m.Values[key] = back
	return nil
}

// LockedBuffer is a log or an output the daemon's goroutines write and a test reads.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes is a copy of what was written so far.
func (b *LockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf.Bytes()...)
}

// String is what was written so far, as a string.
func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
