package daemon

import (
	"context"
	"encoding/json"

	"github.com/saverd/saverd/handlers"
	"github.com/saverd/saverd/rpc"
)

// connHost is the handlers' Host over the rpc connection: model.fork is a call, the rest notifications.
type connHost struct{ conn *rpc.Conn }

func (h connHost) Fork(ctx context.Context, req handlers.ForkRequest) (*handlers.ForkResult, error) {
	var raw json.RawMessage
	if err := h.conn.Call(ctx, "model.fork", req, &raw); err != nil {
		return nil, err
	}
	return handlers.DecodeForkResult(raw) // null is a cold snapshot, anything else must be {text, usage}
}

func (h connHost) Notify(method string, params any) {
	_ = h.conn.Notify(context.Background(), method, params)
}
