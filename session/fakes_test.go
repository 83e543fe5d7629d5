package session

import (
	"context"
)

// nopHost answers nothing and drops every notification.
type nopHost struct{}

func (nopHost) Fork(context.Context, ForkRequest) (*ForkResult, error) { return nil, nil }
func (nopHost) Notify(string, any)                                     {}
