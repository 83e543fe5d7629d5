package hookcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/saverd/saverd/internal/usersock"
)

// One call to the daemon over its socket: how long it is given, the request written and the answer read.

// How long a hook waits for the daemon. A daemon that has read a request is alive, however long it then
// takes: a hook gives it StallWait to read the request, then the answer's own wait. CheckWait is a
// `/saver check`'s, which waits for the judge's run (under the 130 s timeout the install gives
// UserPromptSubmit); EventWait every other hook's, which the daemon answers at once (under the 10 s the
// install gives the rest). A daemon that has not read the request in StallWait is hung (stopped, wedged):
// the hook gives up then, whatever the event, and the next hooks give it less (breaker.go). SessionEnd
// gets SessionEndWait: Codex clamps its hooks to 3 s, the install gives Claude Code's 5 s.
const (
	CheckWait      = 125 * time.Second
	EventWait      = 8 * time.Second
	SessionEndWait = 2 * time.Second
	StallWait      = time.Second
	StartWait      = 3 * time.Second
)

// Waits are how long one call gives the daemon, from when it connects: Taken to read the request,
// Answer to answer it.
type Waits struct{ Taken, Answer time.Duration }

// WaitsFor is what the hook of event, with payload, gives the daemon: a prompt that runs the judge waits
// for it, every other hook answers at once.
func WaitsFor(event string, payload []byte) Waits {
	w := Waits{Taken: StallWait, Answer: EventWait}
	switch {
	case event == "UserPromptSubmit" && runsJudge(promptOf(payload)):
		w.Answer = CheckWait
	case event == "SessionEnd":
		w.Answer = SessionEndWait
	}
	return w
}

// Call sends one request frame to the daemon and returns its result's output (or text) member, raw,
// waiting for it as long as wait; daemon, when not empty, is the saverd binary to launch when no daemon
// answers. The socket's directory and the process listening are checked before a byte is written
// (usersock.Dial): one that is not the user's own is an error wrapping usersock.ErrUnsafe, and no daemon
// is launched for it.
func Call(sock string, frame []byte, wait time.Duration, daemon string) (json.RawMessage, error) {
	return CallWithin(sock, frame, Waits{Taken: wait, Answer: wait}, daemon)
}

// ask is a hook's call, through the breaker: while a hook found the daemon hung lately, the daemon gets
// BreakerWait to read the request (and, where the hook cannot see whether it did, to answer); a daemon
// that answers closes the breaker, one found hung (errHung, or no answer in a whole EventWait) opens it.
// The mark is looked for only once a daemon is connected: with none there is nothing to wait for. With
// readBy the frame (a hook's, whose params object ends it) says when the hook stops waiting for the daemon
// to read it (the hook method's readBy): read later, nobody waits for its answer.
func ask(sock string, frame []byte, w Waits, daemon string, readBy bool) (json.RawMessage, error) {
	out, hung, err := call(sock, frame, w, daemon, true, readBy)
	switch {
	case errors.Is(err, errHung), errors.Is(err, errSilent) && w.Answer >= EventWait:
		tripBreaker(sock, time.Now())
	case hung && (err == nil || answered(err)):
		clearBreaker(sock)
	}
	return out, err
}

// answered reports whether err is an error the daemon answered with.
func answered(err error) bool {
	var de *daemonError
	return errors.As(err, &de)
}

// afterLaunch is w for a hook that first spent spent starting the daemon: the client's timeout for the
// hook counts from the hook's start (10 s for most events, while a launch may take StartWait and an answer
// EventWait), so the answer's wait gives back what the launch took, never below the wait to read the request.
func afterLaunch(w Waits, spent time.Duration) Waits {
	w.Answer = max(w.Answer-spent, w.Taken)
	return w
}

// breakerWaits are the waits w while the breaker is open.
func breakerWaits(w Waits) Waits {
	w.Taken = min(w.Taken, BreakerWait)
	if !seesTaken {
		w.Answer = min(w.Answer, BreakerWait)
	}
	return w
}

// errHung: the daemon did not read the request in the time it was given, so it is stopped or wedged.
var errHung = errors.New("the daemon is running but did not read the request")

// errSilent: the daemon read the request and gave no answer in the time it was given.
var errSilent = errors.New("the daemon gave no answer")

// daemonError is an error the daemon answered with: it is alive.
type daemonError struct {
	Code    int
	Message string
}

func (e *daemonError) Error() string { return fmt.Sprintf("daemon: %s (%d)", e.Message, e.Code) }

// CallWithin is Call giving the daemon w.Taken to read the request and w.Answer to answer it. A daemon
// that does not read it in time is errHung (wrapping os.ErrDeadlineExceeded), one that reads it and does
// not answer in time errSilent.
func CallWithin(sock string, frame []byte, w Waits, daemon string) (json.RawMessage, error) {
	out, _, err := call(sock, frame, w, daemon, false, false)
	return out, err
}

// call is CallWithin; with breaker, once a daemon is connected, the waits are breakerWaits while a hook
// found it hung lately (hung); with readBy, the frame's params end with when the hook stops waiting for
// the daemon to read it.
func call(sock string, frame []byte, w Waits, daemon string, breaker, readBy bool) (out json.RawMessage, hung bool, err error) {
	c, err := usersock.Dial(sock, time.Second)
	if err != nil && daemon != "" && usersock.Absent(err) {
		launched := time.Now()
		if err = launchDaemon(daemon, sock); err == nil {
			c, err = DialRetry(sock, StartWait)
		}
		w = afterLaunch(w, time.Since(launched))
	}
	if errors.Is(err, usersock.ErrUnsafe) {
		return nil, hung, err
	}
	if err != nil {
		return nil, hung, fmt.Errorf("no daemon at %s: %w", sock, err)
	}
	defer c.Close()
	if hung = breaker && hungLately(sock, time.Now()); hung {
		w = breakerWaits(w)
	}
	start := time.Now()
	// Sent with a Content-Length header rather than as a line: the daemon then reads a payload of tens
	// of megabytes into one buffer of its size, instead of growing one line by line as it comes.
	body, tail := bytes.TrimSuffix(frame, []byte("\n")), []byte(nil)
	readBy = readBy && bytes.HasSuffix(body, []byte("}}"))
	if readBy { // spliced in at the params' end rather than written into a copy of a payload of megabytes
		body, tail = body[:len(body)-2], readByTail(start, start, w)
	}
	head := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(body)+len(tail))
	if err := sendFrame(c, start, w, head, body, tail); err != nil {
		return nil, hung, fmt.Errorf("send: %w", err)
	}
	r := bufio.NewReaderSize(c, 64<<10)
	if err := await(c, r, time.Now(), start, w); err != nil {
		return nil, hung, err
	}
	line, err := readAnswer(r)
	if err != nil {
		return nil, hung, fmt.Errorf("no answer: %w", err)
	}
	var reply struct {
		Result *struct {
			Output json.RawMessage `json:"output"`
			Text   *string         `json:"text"`
		} `json:"result"`
		Error *daemonError `json:"error"`
	}
	if err := json.Unmarshal(line, &reply); err != nil {
		return nil, hung, fmt.Errorf("answer is not JSON-RPC: %w", err)
	}
	if reply.Error != nil {
		return nil, hung, reply.Error
	}
	if reply.Result == nil {
		return nil, hung, nil
	}
	if reply.Result.Text != nil {
		return json.RawMessage(*reply.Result.Text), hung, nil
	}
	if string(reply.Result.Output) == "null" {
		return nil, hung, nil
	}
	return reply.Result.Output, hung, nil
}

// sendPiece is how much of a request one write gives the daemon w.Taken to take: a request of tens of
// megabytes goes on as long as the daemon reads it, and stops when it does not.
const sendPiece = 256 << 10

// oneWrite is the largest request written in one write, its parts copied together: the daemon then wakes
// once for it.
const oneWrite = 64 << 10

// sendFrame writes a request: its header, body and tail (the readBy that ends a hook's params, or
// nothing). A large body goes as it lies, and the tail after it says readBy from then: the daemon was
// given w.Taken to read the rest from when the last part was written.
func sendFrame(c net.Conn, start time.Time, w Waits, head, body, tail []byte) error {
	if len(body) <= oneWrite {
		return send(c, start, w, append(append(head, body...), tail...))
	}
	if err := send(c, start, w, head, body); err != nil {
		return err
	}
	if len(tail) > 0 {
		if again := readByTail(time.Now(), start, w); len(again) == len(tail) {
			tail = again
		}
	}
	return send(c, start, w, tail)
}

// send writes the parts of a message, each piece within w.Taken and all of it within w.Answer of start.
func send(c net.Conn, start time.Time, w Waits, parts ...[]byte) error {
	for _, part := range parts {
		if err := sendPart(c, part, start, w); err != nil {
			return err
		}
	}
	return nil
}

func sendPart(c net.Conn, msg []byte, start time.Time, w Waits) error {
	end := start.Add(w.Answer)
	for len(msg) > 0 {
		piece := msg[:min(len(msg), sendPiece)]
		at := time.Now().Add(w.Taken)
		if at.After(end) {
			at = end
		}
		_ = c.SetWriteDeadline(at)
		n, err := c.Write(piece)
		msg = msg[n:]
		if errors.Is(err, os.ErrDeadlineExceeded) && time.Now().Before(end) {
			return fmt.Errorf("%w (%d bytes unsent after %s): %w", errHung, len(msg), w.Taken, err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readByTail ends a hook's params with when it stops waiting for the daemon to read it, the request's
// last part written at sent: w.Taken after that where the hook sees the read (await), else w.Answer after
// start.
func readByTail(sent, start time.Time, w Waits) []byte {
	by := start.Add(w.Answer)
	if seesTaken && sent.Add(w.Taken).Before(by) {
		by = sent.Add(w.Taken)
	}
	return fmt.Appendf(nil, `,"readBy":%d}}`, by.UnixMilli())
}

// await waits for the answer to begin: w.Taken from sent (the request written) for the daemon to read the
// request, then, once it has (or where the hook cannot see whether it has), until w.Answer from start.
func await(c net.Conn, r *bufio.Reader, sent, start time.Time, w Waits) error {
	first := sent.Add(w.Taken)
	if end := start.Add(w.Answer); end.Before(first) {
		first = end
	}
	_ = c.SetReadDeadline(first)
	_, err := r.Peek(1)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if ok, known := taken(c); known && !ok {
			return fmt.Errorf("%w in %s: %w", errHung, w.Taken, err)
		}
		if end := start.Add(w.Answer); first.Before(end) {
			_ = c.SetReadDeadline(end)
			_, err = r.Peek(1)
		}
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w in %s: %w", errSilent, w.Answer, err)
	case err != nil:
		return fmt.Errorf("no answer: %w", err)
	}
	_ = c.SetReadDeadline(start.Add(w.Answer))
	return nil
}

// readAnswer reads one Content-Length framed reply (the framing the daemon answers in, as it was asked in).
func readAnswer(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if name, value, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil || length < 0 || length > maxAnswer {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
		}
	}
	if length < 0 {
		return nil, errors.New("an answer with no Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// maxAnswer bounds the daemon's answer a hook reads: a pane or a block reason, far under it.
const maxAnswer = 64 << 20

// DialRetry dials the user's socket (usersock.Dial) until a daemon answers or within has passed; a socket
// that is not the user's own ends it at once.
func DialRetry(sock string, within time.Duration) (net.Conn, error) {
	deadline := time.Now().Add(within)
	for {
		c, err := usersock.Dial(sock, time.Second)
		if err == nil || !usersock.Absent(err) || time.Now().After(deadline) {
			return c, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}
