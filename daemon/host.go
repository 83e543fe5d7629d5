package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// connHost is the session.Host over the rpc connection: model.fork is a call, the rest notifications.
type connHost struct{ conn *rpc.Conn }

func (h connHost) Fork(ctx context.Context, req session.ForkRequest) (*session.ForkResult, error) {
	var raw json.RawMessage
	if err := h.conn.Call(ctx, "model.fork", req, &raw); err != nil {
		var rerr *rpc.Error
		if errors.As(err, &rerr) {
			// The host's error reply: its own words are the why a person reads, not our call's wrapping.
			if rerr.Message == "" {
				return nil, fmt.Errorf("the host answered model.fork with error %d", rerr.Code)
			}
			return nil, errors.New(rerr.Message)
		}
		return nil, err
	}
	return session.DecodeForkResult(raw) // null is a cold snapshot, anything else must be {text, usage}
}

func (h connHost) Notify(method string, params any) {
	_ = h.conn.Notify(context.Background(), method, params)
}
