// Command echo is the transport floor of saverd's benchmarks: it answers every JSON-RPC request line on
// stdin with an empty result carrying its id, over the same pipes the daemon is measured on, and does
// nothing else.
package main

import (
	"bufio"
	"bytes"
	"os"
)

func main() {
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			if id := idOf(line); id != nil {
				w.WriteString(`{"id":`)
				w.Write(id)
				w.WriteString(`,"jsonrpc":"2.0","result":{}}` + "\n")
			}
			if r.Buffered() == 0 {
				w.Flush()
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			w.Flush()
			return
		}
	}
}

// idOf is the request's id, the number after the first "id": (the requests it is sent put it first).
func idOf(line []byte) []byte {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 {
		return nil
	}
	rest := line[i+5:]
	j := bytes.IndexAny(rest, ",}")
	if j < 0 {
		return nil
	}
	return rest[:j]
}
