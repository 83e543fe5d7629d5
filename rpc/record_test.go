package rpc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
)

func TestRecord(t *testing.T) {
	rec := &testfake.LockedBuffer{}
	h := startHost(t, Options{Framing: FramingHeader, Record: rec}, echo)
	request := "{\"jsonrpc\":\"2.0\",\n \"id\":1,\"method\":\"echo\",\"params\":[1]}"
	h.sendHeader(request)
	h.expectResult("1", "[1]")
	h.sendHeader(`{broken`)
	h.expectError("null", CodeParseError, "parse error")
	h.sendHeader(`[1,2]`)
	h.expectError("null", CodeInvalidRequest, "batch")
	if err := h.conn.Notify(context.Background(), "ui.toast", []string{"hi"}); err != nil {
		t.Fatal(err)
	}
	h.recv()
	_ = h.conn.Close()
	waitDone(t, h.conn, time.Second)

	want := []string{
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}}`, // compacted: it spanned lines
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":[1]}}`,
		`{"dir":"in","raw":"{broken"}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character 'b' looking for beginning of object key string (at byte 2)"}}}`,
		`{"dir":"in","msg":[1,2]}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batch requests are not supported"}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","method":"ui.toast","params":["hi"]}}`,
	}
	got := strings.Split(strings.TrimSuffix(rec.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("record has %d lines, want %d:\n%s", len(got), len(want), rec.String())
	}
	for i := range want {
		if !json.Valid([]byte(got[i])) {
			t.Errorf("line %d is not JSON: %s", i, got[i])
		}
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

func TestRecordFailureDoesNotEndTheConnection(t *testing.T) {
	h := startHost(t, Options{Record: failingWriter{}}, echo)
	h.call(1, "echo", "[1]")
	h.expectResult("1", "[1]")
	h.call(2, "echo", "[2]")
	h.expectResult("2", "[2]")
	if !strings.Contains(h.log.String(), "recording stopped") {
		t.Errorf("record failure not logged:\n%s", h.log.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errTest }

var errTest = &Error{Code: 1, Message: "disk full"}
