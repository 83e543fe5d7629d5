package main

import (
	"context"
	"encoding/json"
	"fmt"

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
	return decodeFork(raw)
}

// decodeFork reads model.fork's result: null is a cold snapshot, anything else must be {text, usage}.
func decodeFork(raw json.RawMessage) (*handlers.ForkResult, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var res handlers.ForkResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("model.fork answered something that is not {text, usage}: %w", err)
	}
	return &res, nil
}

func (h connHost) Notify(method string, params any) {
	_ = h.conn.Notify(context.Background(), method, params)
}
