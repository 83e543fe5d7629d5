// Package claudeapi is a scripted Anthropic Messages API for tests that drive the real Claude Code CLI
// offline, and the helpers to install and run that client. It is test support, kept as a normal
// package so the tests of cmd/saverd can import it.
//
// # The server
//
// A Server answers POST /v1/messages (the client adds ?beta=true) with the reply its Script chooses
// for that request: streamed as server-sent events when the request asks for a stream (message_start
// with the input usage, ping, per block content_block_start, content_block_delta of text_delta or
// input_json_delta pieces, content_block_stop, then message_delta with the stop reason and usage, and
// message_stop), else one JSON message. POST /v1/messages/count_tokens gets an estimate; any other
// path gets the API's 404 not_found_error. Every messages request is kept, decoded (Requests): its
// model, system prompt, messages and tools, the whole body, and Text, all the model would read.
//
//	srv, claude := claudeapi.Offline(t, claudeapi.Route(
//		claudeapi.Case{Match: isJudge, Script: claudeapi.Steps(claudeapi.Text(findings))},
//		claudeapi.Case{Match: anything, Script: claudeapi.Steps(
//			claudeapi.ToolUse("Bash", map[string]string{"command": "go test ./..."}).WithUsage(u),
//			claudeapi.Text("Tests pass."),
//		)},
//	))
//	res := claude.Print(t, "run the tests", "--allowedTools", "Bash Read")
//	srv.Requests()[1].ToolResults() // what the real Bash printed
//
// # Running the real client offline
//
// Install finds Claude Code ClaudeCodeVersion in $HOME/.cache/saverd-clients (.ci/run installs it
// there) or installs it with npm, and skips the test only when npm cannot. Env gives the client a
// temporary HOME (and TMPDIR), the server's URL, a dummy key and no nonessential traffic, and drops
// every inherited ANTHROPIC_*, CLAUDE_* and proxy variable. Offline puts the three together; Claude.Run
// and Claude.Print run the client in the project directory.
//
// The client must never reach another address, so it runs in a network namespace of its own with only
// loopback, up (Isolate). The namespace is made inside the test process: one goroutine locks itself to
// an OS thread and calls unshare(CLONE_NEWNET) there, so only that thread moves; the Server's listening
// socket is made on that thread (Netns.Listen) and so belongs to the namespace, and the client is
// started from that thread (Netns.Start), so it and everything it starts (its hooks, a daemon a hook
// starts, a `claude -p` fork that daemon runs) see only that loopback, where the server is. The rest of
// the test process, the server's handlers included, keeps the machine's network and reads the recorded
// requests in memory; a Unix socket on the file system (the daemon's) is reachable from both sides.
// Nothing is re-executed, no `unshare` or `ip` command is needed (lo is brought up with the ioctl `ip
// link set lo up` uses), and it works under plain `go test`. It needs root or CAP_SYS_ADMIN (tests run
// as root here and in .ci/run); elsewhere Isolate skips the test, saying so, rather than run the client
// with the network.
// A process started from the test process outside the namespace cannot reach the server: start with
// Netns.Start whatever must (a daemon that forks the model itself).
//
// # What Claude Code 2.1.328 sends
//
// Observed on this machine; [checked] marks what this package's tests assert on every run.
//
//   - With CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 it calls nothing but POST /v1/messages?beta=true:
//     no token counting, no model listing [checked]. Every request streams, with model claude-opus-5-5 and
//     max_tokens 128000; the body also has metadata (user_id, a JSON string carrying the session id),
//     thinking, output_config, context_management; headers carry X-Claude-Code-Session-Id [checked].
//   - The system prompt is a list of blocks, the first a billing line (x-anthropic-billing-header:
//     cc_version=...). The first user message is a system-reminder text block, then the prompt, so
//     LastUserText ends with the prompt [checked]; after it comes a message with role "system" (the environment,
//     the deferred tools, the agent types). Twelve tools: Agent, Bash, Edit, ListAgents, Read,
//     ReportFindings, ScheduleWakeup, Skill, ToolSearch, Workflow, DeferredToolPlaceholder, Write.
//   - `claude -p PROMPT --output-format json --allowedTools "Bash Read"` with a Bash tool use (echo hi)
//     then a text: the command really runs, the second request's tool_result is "hi", the result
//     object's usage is the sum of the run's scripted usage, and each assistant line of the transcript
//     ($HOME/.claude/projects/<project>/<session_id>.jsonl) carries its reply's usage as sent [checked].
//   - `claude -p --resume ID "next"` keeps the session id and appends to the same transcript [checked].
//   - The judge's fork, `claude -p --resume ID --fork-session --output-format json --max-turns 1
//     --permission-mode plan --settings '{"disableAllHooks":true}'` with the prompt on stdin: stdin works
//     as the prompt (given a prompt argument too, the client joins them, the argument first, with a
//     newline). Its one request has the parent's model, a byte-identical system prompt and tool list
//     (so the parent's prompt cache applies), all the parent's messages (earlier prompts now plain
//     strings) [checked], the prompt as the last user message, then a role "system" message with plan mode's
//     rules; safeguards[].classifier_context.permission_mode is "plan". It gets a new session id and a
//     transcript of its own, and the project's hooks do not run [checked]. Answered with a tool use instead of
//     text, it stops: exit 1, subtype error_max_turns, is_error, an empty result, the tool not run.
//   - An Agent tool use (async, the default) starts a subagent whose requests open their system prompt
//     with a billing line marked cc_is_subagent=true (IsSubagent) and carry the prompt the parent gave
//     as the last text of their first user message; its own, shorter system prompt; its transcript goes
//     to <session_id>/subagents/agent-<id>.jsonl. The parent's loop gets a tool result ("Async agent
//     launched successfully. ...") and, once the subagent is done, one more request whose last user
//     message is a system-reminder with a <task-notification> (status, summary, <result>); `claude -p`
//     waits for it. The order of the parent's and the subagent's requests varies: route by IsSubagent
//     and by content, not by arrival [checked].
//   - A 400 reply (what Steps sends when it runs out) ends the run within a second, after five
//     immediate retries: exit 1, is_error, result "API Error: 400 <message>" [checked]. A prompt a
//     UserPromptSubmit hook blocks makes no request at all: exit 0, num_turns 0.
package claudeapi
