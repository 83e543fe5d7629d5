package replay

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/golden"
)

// TestReplayGolden plays every recording under testdata through a fresh daemon, as `saverd replay --show
// band,pane,debug --width 90 FILE` does, and compares everything it printed, twice over to prove a
// replay is deterministic.
func TestReplayGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no replay inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".ndjson")
		t.Run(name, func(t *testing.T) {
			var runs [2]bytes.Buffer
			for i := range runs {
				opt := Options{Version: "0.1.0", Show: []string{"band", "pane", "debug"}, Width: 90, WriteRoot: t.TempDir()}
				if err := replayFile(in, opt, &runs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(runs[0].Bytes(), runs[1].Bytes()) {
				t.Fatal("two replays of one recording printed different output")
			}
			golden.Check(t, name+".golden", runs[0].String())
		})
	}
}

// TestReplayTakesAStringForkID: the live daemon takes "7" for its call 7, so a replay does too.
func TestReplayTakesAStringForkID(t *testing.T) {
	rec := `{"dir":"out","msg":{"jsonrpc":"2.0","id":3,"method":"model.fork","params":{"sessionId":"s","purpose":"judge","prompt":"p"}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":"3","result":{"text":"{}","usage":{"input_tokens":1,"output_tokens":1,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":"x3","result":null}}
`
	sc, err := readScript(strings.NewReader(rec), "rec")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.forks) != 1 || sc.forks[0].purpose != "judge" {
		t.Fatalf("forks %+v: the reply with id \"3\" answers call 3, and \"x3\" answers nothing", sc.forks)
	}
}
