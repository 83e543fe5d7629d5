package rpc

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// BenchmarkRoundTrip measures one NDJSON request -> reply over in-memory
// pipes, as a host sees it: write a frame, read the reply frame.
func BenchmarkRoundTrip(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := NewConn(inR, outW, Options{Framing: FramingNDJSON})
	type result struct {
		SessionID string `json:"sessionId"`
		Applied   int    `json:"applied"`
	}
	c.Serve(context.Background(), func(_ context.Context, req Request) (any, error) {
		var p struct {
			SessionID string `json:"sessionId"`
			Seq       int    `json:"seq"`
		}
		if err := DecodeParams(req.Params, &p); err != nil {
			return nil, err
		}
		return result{SessionID: p.SessionID, Applied: p.Seq}, nil
	})
	b.Cleanup(func() {
		_ = c.Close()
		_ = inW.Close()
		<-c.Done()
	})
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"session.event","params":{"sessionId":"s-0123456789","seq":42,"kind":"edit"}}` + "\n")
	want := `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-0123456789","applied":42}}` + "\n"
	br := bufio.NewReader(outR)
	b.ReportAllocs()
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		if _, err := inW.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := br.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if string(line) != want {
			b.Fatalf("reply %s", line)
		}
	}
}
