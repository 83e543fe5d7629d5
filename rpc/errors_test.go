package rpc

import (
	"errors"
	"fmt"
	"testing"
)

func TestAsError(t *testing.T) {
	var typedNil *Error
	base := InvalidParams("params.seq: missing").WithData("d")
	tests := []struct {
		name string
		err  error
		want *Error
	}{
		{"nil", nil, nil},
		{"itself", base, base},
		{"wrapped keeps code and data, takes full message", fmt.Errorf("session.event: %w", base),
			&Error{Code: CodeInvalidParams, Message: "session.event: params.seq: missing", Data: "d"}},
		{"plain", errors.New("boom"), &Error{Code: CodeInternalError, Message: "boom"}},
		{"typed nil", typedNil, &Error{Code: CodeInternalError, Message: "handler returned a nil *rpc.Error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AsError(tt.err)
			if (got == nil) != (tt.want == nil) || got != nil && (got.Code != tt.want.Code || got.Message != tt.want.Message || got.Data != tt.want.Data) {
				t.Fatalf("AsError = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestConstructors(t *testing.T) {
	tests := []struct {
		err  *Error
		code int64
		msg  string
	}{
		{MethodNotFound("x.y"), CodeMethodNotFound, "method not found: x.y"},
		{InvalidParams("want %s", "seq"), CodeInvalidParams, "want seq"},
		{InternalError("oops %d", 1), CodeInternalError, "oops 1"},
		{Errorf(-1, "%d", 5), -1, "5"},
		{NewError(-2, "m"), -2, "m"},
	}
	for _, tt := range tests {
		if tt.err.Code != tt.code || tt.err.Error() != tt.msg {
			t.Errorf("got %d %q, want %d %q", tt.err.Code, tt.err.Error(), tt.code, tt.msg)
		}
	}
	var typedNil *Error
	if typedNil.Error() == "" {
		t.Error("nil *Error has an empty message")
	}
}
