module github.com/saverd/saverd

go 1.26.8

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rs/zerolog v1.35.1
	github.com/segmentio/encoding v0.3.4
	github.com/sourcegraph/conc v0.3.0
	go.lsp.dev/jsonrpc2 v0.10.0
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
