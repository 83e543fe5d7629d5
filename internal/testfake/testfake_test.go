package testfake

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestRegistry: a value comes back as the disk store gives it (through JSON); a merge that fails, or a
// value JSON cannot hold, stores nothing.
func TestRegistry(t *testing.T) {
	for _, c := range []struct {
		name    string
		merge   func(any) (any, error)
		want    any
		wantErr bool
	}{
		{"through JSON", func(any) (any, error) { return map[string]int{"n": 3}, nil }, map[string]any{"n": float64(3)}, false},
		{"merge fails", func(any) (any, error) { return 1, errors.New("held") }, "kept", true},
		{"not JSON", func(any) (any, error) { return func() {}, nil }, "kept", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewRegistry()
			r.Values["k"] = "kept"
			err := r.Update("k", c.merge)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, c.wantErr)
			}
			if got, _ := r.Get("k"); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("stored %#v, want %#v", got, c.want)
			}
		})
	}
}

// TestLockedBufferBytesIsACopy: what Bytes answered does not change with later writes.
func TestLockedBufferBytesIsACopy(t *testing.T) {
	var b LockedBuffer
	fmt.Fprint(&b, "one")
	got := b.Bytes()
	fmt.Fprint(&b, "two")
	if string(got) != "one" || string(b.Bytes()) != "onetwo" || b.String() != "onetwo" {
		t.Fatalf("Bytes = %q then %q, String %q", got, b.Bytes(), b.String())
	}
}
