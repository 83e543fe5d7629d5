// Package claudeapi is a scripted Anthropic Messages API for tests that drive the real Claude Code CLI.
package claudeapi
