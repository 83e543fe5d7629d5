package claudeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// deltaSize is how many bytes of text or tool input one content_block_delta carries at most: the real
// API streams a block in many small deltas, and the client must join them.
const deltaSize = 48

// message is the API's Message object, the non-streaming answer and what the stream spells out.
type message struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []replyBlock   `json:"content"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        wireUsage      `json:"usage"`
	inputJSON    map[int]string // tool inputs as JSON text, by block index, for input_json_delta
}

// replyBlock is one content block on the wire. Input is a pointer so a text block has none and a
// tool_use block starts with {} in content_block_start.
type replyBlock struct {
	Type  string           `json:"type"`
	Text  *string          `json:"text,omitempty"`
	ID    string           `json:"id,omitempty"`
	Name  string           `json:"name,omitempty"`
	Input *json.RawMessage `json:"input,omitempty"`
}

// wireUsage is usage as the API writes it, with the cache-write split Claude Code records.
type wireUsage struct {
	Usage
	CacheCreationSplit struct {
		Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	ServiceTier string `json:"service_tier"`
}

// message builds the Message answering req with reply: ids made, defaults filled in.
func (s *Server) message(req Request, reply Reply) (message, error) {
	msg := message{ID: s.newID("msg"), Type: "message", Role: "assistant", Model: reply.Model,
		Content: []replyBlock{}, inputJSON: map[int]string{}}
	if msg.Model == "" {
		msg.Model = req.Model
	}
	stop, chars := reply.StopReason, 0
	for i, b := range reply.Content {
		switch b.Type {
		case "text":
			text := b.Text
			msg.Content = append(msg.Content, replyBlock{Type: "text", Text: &text})
			chars += len(text)
		case "tool_use":
			if b.Name == "" {
				return message{}, fmt.Errorf("reply block %d: a tool use needs a name", i)
			}
			input, err := encodeInput(b.Input)
			if err != nil {
				return message{}, fmt.Errorf("reply block %d (%s): %w", i, b.Name, err)
			}
			id := b.ID
			if id == "" {
				id = s.newID("toolu")
			}
			msg.Content = append(msg.Content, replyBlock{Type: "tool_use", ID: id, Name: b.Name, Input: &input})
			msg.inputJSON[len(msg.Content)-1] = string(input)
			chars += len(b.Name) + len(input)
			if reply.StopReason == "" {
				stop = "tool_use"
			}
		default:
			return message{}, fmt.Errorf("reply block %d: type %q is neither text nor tool_use", i, b.Type)
		}
	}
	if stop == "" {
		stop = "end_turn"
	}
	msg.StopReason = &stop
	u := Usage{Input: estimateTokens(len(req.Body)), Output: estimateTokens(chars)}
	if reply.Usage != nil {
		u = *reply.Usage
	}
	msg.Usage.Usage = u
	msg.Usage.CacheCreationSplit.Ephemeral5m = u.CacheCreation
	msg.Usage.ServiceTier = "standard"
	return msg, nil
}

// event is one server-sent event: its name and its JSON data, whose "type" is the name.
type event struct {
	name string
	data any
}

// The events' data, as structs so "type" comes first, as the API writes it.
type (
	typeOnly struct {
		Type string `json:"type"`
	}
	messageStart struct {
		Type    string  `json:"type"`
		Message message `json:"message"`
	}
	blockStart struct {
		Type         string     `json:"type"`
		Index        int        `json:"index"`
		ContentBlock replyBlock `json:"content_block"`
	}
	blockDelta struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
		Delta delta  `json:"delta"`
	}
	delta struct {
		Type        string  `json:"type"`
		Text        *string `json:"text,omitempty"`
		PartialJSON *string `json:"partial_json,omitempty"`
	}
	blockStop struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
	}
	messageDelta struct {
		Type  string `json:"type"`
		Delta struct {
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage Usage `json:"usage"`
	}
)

// events spells msg out as the API streams it: message_start with the input usage and no content, a
// ping, each block's start, deltas and stop, then message_delta with the stop reason and the final usage,
// and message_stop.
func (msg message) events() []event {
	start := msg
	start.Content = []replyBlock{}
	start.StopReason = nil
	start.Usage.Output = 1 // the API reports a token or so of output at the start
	evs := []event{
		{"message_start", messageStart{"message_start", start}},
		{"ping", typeOnly{"ping"}},
	}
	for i, b := range msg.Content {
		first := b
		var deltas []delta
		switch b.Type {
		case "text":
			empty := ""
			first.Text = &empty
			for _, part := range split(*b.Text) {
				deltas = append(deltas, delta{Type: "text_delta", Text: &part})
			}
		case "tool_use":
			empty := json.RawMessage("{}")
			first.Input = &empty
			for _, part := range split(msg.inputJSON[i]) {
				deltas = append(deltas, delta{Type: "input_json_delta", PartialJSON: &part})
			}
		}
		evs = append(evs, event{"content_block_start", blockStart{"content_block_start", i, first}})
		for _, d := range deltas {
			evs = append(evs, event{"content_block_delta", blockDelta{"content_block_delta", i, d}})
		}
		evs = append(evs, event{"content_block_stop", blockStop{"content_block_stop", i}})
	}
	end := messageDelta{Type: "message_delta", Usage: msg.Usage.Usage}
	end.Delta.StopReason = *msg.StopReason
	return append(evs, event{"message_delta", end}, event{"message_stop", typeOnly{"message_stop"}})
}

// stream writes msg as server-sent events, flushing after each as the API does.
func stream(w http.ResponseWriter, msg message) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, ev := range msg.events() {
		data, err := json.Marshal(ev.data)
		if err != nil { // every event is built from marshalable values above
			data = []byte(fmt.Sprintf(`{"type":"error","error":{"type":"api_error","message":%q}}`, err.Error()))
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data); err != nil {
			return // the client hung up
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// split cuts s into pieces of at most deltaSize bytes on rune boundaries; the empty string is one
// empty piece, as the API sends an empty delta for an empty block.
func split(s string) []string {
	if s == "" {
		return []string{""}
	}
	var parts []string
	for len(s) > 0 {
		n := min(deltaSize, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 { // a rune longer than deltaSize cannot happen; keep going anyway
			n = min(deltaSize, len(s))
		}
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return parts
}
