package session

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// nopHost answers nothing and drops every notification.
type nopHost struct{}

func (nopHost) Fork(context.Context, ForkRequest) (*ForkResult, error) { return nil, nil }
func (nopHost) Notify(string, any)                                     {}

// memRegistry is an in-memory Registry.
type memRegistry struct{ values map[string]any }

func (m *memRegistry) Get(key string) (any, error) { return m.values[key], nil }
func (m *memRegistry) Update(key string, merge func(any) (any, error)) error {
	v, err := merge(m.values[key])
	if err == nil {
		// Round-trip through JSON, as the disk store does.
		b, _ := json.Marshal(v)
		var back any
		_ = json.Unmarshal(b, &back)
		m.values[key] = back
	}
	return err
}

// lockedBuffer is a log written by the daemon's goroutines and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf.Bytes()...)
}
