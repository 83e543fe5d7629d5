//go:build unix

package safefile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		path  string
		limit int64
		want  error
	}{
		{"plain", plain, 10, nil},
		{"too large", plain, 9, ErrTooLarge},
		{"fifo with no writer", fifo, 10, ErrNotRegular},
		{"device", "/dev/zero", 10, ErrNotRegular},
		{"directory", dir, 10, ErrNotRegular},
		{"missing", filepath.Join(dir, "none"), 10, os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			data, err := ReadWithin(tt.path, tt.limit, 2*time.Second)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if err == nil && string(data) != "0123456789" {
				t.Fatalf("data = %q", data)
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("took %s", d)
			}
		})
	}
}

func TestReadLine(t *testing.T) {
	input := "short\n" + strings.Repeat("x", 100_000) + "\nlast"
	r := bufio.NewReaderSize(strings.NewReader(input), 16)
	type line struct {
		text    string
		tooLong bool
	}
	want := []line{{"short\n", false}, {strings.Repeat("x", 10), true}, {"last", false}}
	for i, w := range want {
		got, tooLong, err := ReadLine(r, 10)
		if err != nil || string(got) != w.text || tooLong != w.tooLong {
			t.Fatalf("line %d = %q, %v, %v; want %q, %v", i, got, tooLong, err, w.text, w.tooLong)
		}
	}
	if _, _, err := ReadLine(r, 10); err == nil {
		t.Fatal("no EOF after the last line")
	}
}
