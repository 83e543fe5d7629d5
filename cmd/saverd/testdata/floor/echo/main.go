// Command echo is the transport floor of saverd's benchmarks: it answers every JSON-RPC request line on
// stdin with an empty result carrying its id, over the same pipes the daemon is measured on, and does
// nothing else. With -ns it first spends that much CPU on each request: the round trip of a program
// whose only cost per call is that much work, which BenchmarkDaemonFloors sets beside the echo's (on a
// VM a host left waiting longer can pay more than the wait, a wake-up from a deeper sleep that only a
// near-instant answer avoids).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"time"
)

func main() {
	ns := flag.Duration("ns", 0, "CPU spent on each request before its answer")
	flag.Parse()
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			spin(*ns)
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

// spin runs for d on the CPU: a busy loop reading the clock, not a sleep, which would give the CPU up.
func spin(d time.Duration) {
	if d <= 0 {
		return
	}
	for t := time.Now(); time.Since(t) < d; {
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
