package agentcorpus

import (
	"bufio"
	"fmt"
	"path/filepath"

	"github.com/saverd/saverd/agentlog"
)

// claude writes Claude Code session i: per API call two assistant lines (a text block and a tool_use,
// each repeating the usage), the tool's result line and an attachment line, in Claude Code 2.1.328's
// envelope.
func (c *corpus) claude(i int, per int64) error {
	sid := id(1, i)
	cwd := fmt.Sprintf("/home/dev/src/p%d", i%50)
	path := filepath.Join(c.home, ".claude", "projects", fmt.Sprintf("-home-dev-src-p%d", i%50), sid+".jsonl")
	c.totals["claude-code"].Sessions++
	return c.file("claude-code", path, func(w *bufio.Writer) error {
		var n int64
		for j := 0; n < per; j++ {
			in, cached, out := usage(j)
			c.count("claude-code", agentlog.Tokens{Input: in, CacheRead: cached, CacheWrite: 200, Output: out})
			ts := stamp(c.at(i, j))
			u := fmt.Sprintf(`{"input_tokens":%d,"cache_creation_input_tokens":200,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":200}}`, in, cached, out)
			env := fmt.Sprintf(`"timestamp":"%s","cwd":"%s","sessionId":"%s","version":"2.1.328","gitBranch":"main"`, ts, cwd, sid)
			msg := func(content string) string {
				return fmt.Sprintf(`{"parentUuid":"u%d","isSidechain":false,"message":{"id":"msg_%d_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[%s],"stop_reason":"tool_use","usage":%s},"requestId":"req_%d_%d","type":"assistant","uuid":"a%d",%s}`,
					j, i, j, content, u, i, j, j, env)
			}
			n += put(w,
				msg(`{"type":"text","text":"Looking at the file next."}`),
				msg(fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d_%d","name":"Read","input":{"file_path":"%s/f%d.go"}}`, i, j, cwd, j)),
				fmt.Sprintf(`{"parentUuid":"a%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d_%d","type":"tool_result","content":%q}]},"uuid":"u%d",%s}`, j, i, j, output, j+1, env),
				fmt.Sprintf(`{"type":"attachment","attachment":{"type":"todo_reminder","content":[]},"uuid":"t%d",%s}`, j, env),
			)
		}
		return nil
	})
}

// codex writes Codex session i as a rollout: session_meta and turn_context, then per API call a
// function_call, its token_usage_record, its output and the token_count after it, as Codex 0.169 writes
// them.
func (c *corpus) codex(i int, per int64) error {
	sid := id(2, i)
	at := c.at(i, 0)
	path := filepath.Join(c.home, ".codex", "sessions", at.Format("2006/01/02"), "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+sid+".jsonl")
	cwd := fmt.Sprintf("/home/dev/src/p%d", i%50)
	c.totals["codex"].Sessions++
	return c.file("codex", path, func(w *bufio.Writer) error {
		fmt.Fprintf(w, `{"timestamp":"%s","type":"session_meta","payload":{"id":"%s","timestamp":"%s","cwd":"%s","originator":"codex_exec","cli_version":"0.169.0"}}`+"\n", stamp(at), sid, stamp(at), cwd)
		fmt.Fprintf(w, `{"timestamp":"%s","type":"turn_context","payload":{"turn_id":"t1","cwd":"%s","model":"gpt-5","approval_policy":"never"}}`+"\n", stamp(at), cwd)
		var n int64
		var total, totIn, totCached, totOut int64
		for j := 0; n < per; j++ {
			in, cached, out := usage(j)
			whole := in + cached // Codex's input_tokens is the whole prompt
			c.count("codex", agentlog.Tokens{Input: in, CacheRead: cached, Output: out})
			totIn, totCached, totOut = totIn+whole, totCached+cached, totOut+out
			total += whole + out
			ts := stamp(c.at(i, j))
			last := fmt.Sprintf(`{"input_tokens":%d,"cached_input_tokens":%d,"cache_write_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d}`, whole, cached, out, whole+out)
			tot := fmt.Sprintf(`{"input_tokens":%d,"cached_input_tokens":%d,"cache_write_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d}`, totIn, totCached, totOut, total)
			n += put(w,
				fmt.Sprintf(`{"timestamp":"%s","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat f%d.go\"}","call_id":"call_%d"}}`, ts, j, j),
				fmt.Sprintf(`{"timestamp":"%s","type":"token_usage_record","payload":{"turn_id":"t1","session_id":"%s","response_id":"resp_%d_%d","usage":%s,"thread_token_usage":%s}}`, ts, sid, i, j, last, tot),
				fmt.Sprintf(`{"timestamp":"%s","type":"response_item","payload":{"type":"function_call_output","call_id":"call_%d","output":%q}}`, ts, j, output),
				fmt.Sprintf(`{"timestamp":"%s","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":%s,"last_token_usage":%s}}}`, ts, tot, last),
			)
		}
		return nil
	})
}

// gemini writes Gemini CLI session i: its header and session context, the prompt, then per API call its
// gemini message twice (with its tokens, then again with its tool call and result, as Gemini CLI writes
// it) and the tool's response; tmp/<project>/.project_root says where it ran.
func (c *corpus) gemini(i int, per int64) error {
	sid := id(3, i)
	at := c.at(i, 0)
	project := fmt.Sprintf("p%d", i%50)
	dir := filepath.Join(c.home, ".gemini", "tmp", project)
	path := filepath.Join(dir, "chats", "session-"+at.Format("2006-01-02T15-04")+"-"+sid[:8]+".jsonl")
	c.totals["gemini"].Sessions++
	if err := c.file("gemini", filepath.Join(dir, ".project_root"), func(w *bufio.Writer) error {
		_, err := w.WriteString("/home/dev/src/" + project)
		return err
	}); err != nil {
		return err
	}
	return c.file("gemini", path, func(w *bufio.Writer) error {
		fmt.Fprintf(w, `{"sessionId":"%s","projectHash":"","startTime":"%s","lastUpdated":"%s","kind":"main"}`+"\n", sid, stamp(at), stamp(at))
		fmt.Fprintf(w, `{"$set":{"messages":[{"id":"d04923d38bb0f6017037e74183378ef4","timestamp":"%s","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}]}}`+"\n", stamp(at))
		fmt.Fprintf(w, `{"id":"u-%s","timestamp":"%s","type":"user","content":[{"text":"read the files"}]}`+"\n", sid, stamp(at))
		var n int64
		for j := 0; n < per; j++ {
			in, cached, out := usage(j)
			c.count("gemini", agentlog.Tokens{Input: in, CacheRead: cached, Output: out})
			ts := stamp(c.at(i, j))
			tok := fmt.Sprintf(`{"input":%d,"output":%d,"cached":%d,"thoughts":0,"tool":0,"total":%d}`, in+cached, out, cached, in+cached+out)
			msg := fmt.Sprintf(`{"id":"g-%d-%d","timestamp":"%s","type":"gemini","content":"","thoughts":[],"tokens":%s,"model":"gemini-2.5-pro"`, i, j, ts, tok)
			resp := fmt.Sprintf(`{"functionResponse":{"id":"read_file__%d","name":"read_file","response":{"output":%q}}}`, j, output)
			n += put(w,
				msg+"}",
				fmt.Sprintf(`{"$set":{"lastUpdated":"%s"}}`, ts),
				msg+fmt.Sprintf(`,"toolCalls":[{"id":"read_file__%d","name":"read_file","args":{"file_path":"f%d.go"},"result":[%s],"status":"success","timestamp":"%s"}]}`, j, j, resp, ts),
				fmt.Sprintf(`{"id":"r-%d-%d","timestamp":"%s","type":"user","content":[%s]}`, i, j, ts, resp),
			)
		}
		return nil
	})
}

// qwen writes Qwen Code session i: the prompt, then per API call the api_response telemetry, the
// assistant record with its usageMetadata and functionCall, the tool_call telemetry and the tool_result;
// and the session's running total in usage_record.jsonl.
func (c *corpus) qwen(i int, per int64) error {
	sid := id(4, i)
	cwd := fmt.Sprintf("/home/dev/src/p%d", i%50)
	path := filepath.Join(c.home, ".qwen", "projects", fmt.Sprintf("-home-dev-src-p%d", i%50), "chats", sid+".jsonl")
	c.totals["qwen-code"].Sessions++
	var prompt, cachedSum, outSum int64
	calls := 0
	err := c.file("qwen-code", path, func(w *bufio.Writer) error {
		env := func(uuid, ts, typ string) string {
			return fmt.Sprintf(`"uuid":"%s","parentUuid":null,"sessionId":"%s","timestamp":"%s","type":"%s","cwd":"%s","version":"0.24.4","gitBranch":"main"`, uuid, sid, ts, typ, cwd)
		}
		fmt.Fprintf(w, `{%s,"provenance":"real_user","message":{"role":"user","parts":[{"text":"read the files"}]}}`+"\n", env("u0", stamp(c.at(i, 0)), "user"))
		var n int64
		for j := 0; n < per; j++ {
			in, cached, out := usage(j)
			c.count("qwen-code", agentlog.Tokens{Input: in, CacheRead: cached, Output: out})
			prompt, cachedSum, outSum, calls = prompt+in+cached, cachedSum+cached, outSum+out, calls+1
			ts := stamp(c.at(i, j))
			n += put(w,
				fmt.Sprintf(`{%s,"provenance":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response","response_id":"chatcmpl-%d-%d","model":"qwen3-coder-plus","input_token_count":%d,"output_token_count":%d,"cached_content_token_count":%d}}}`, env(fmt.Sprintf("t%d", j), ts, "system"), i, j, in+cached, out, cached),
				fmt.Sprintf(`{%s,"provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"id":"call_%d","name":"read_file","args":{"file_path":"%s/f%d.go"}}}]},"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"thoughtsTokenCount":0,"totalTokenCount":%d,"cachedContentTokenCount":%d}}`, env(fmt.Sprintf("a%d", j), ts, "assistant"), j, cwd, j, in+cached, out, in+cached+out, cached),
				fmt.Sprintf(`{%s,"provenance":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"call_%d","name":"read_file","response":{"output":%q}}}]},"toolCallResult":{"callId":"call_%d","status":"success"}}`, env(fmt.Sprintf("r%d", j), ts, "tool_result"), j, output, j),
			)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.appendLine("qwen-code", filepath.Join(c.home, ".qwen", "usage_record.jsonl"), fmt.Sprintf(
		`{"version":1,"sessionId":"%s","timestamp":%d,"startTime":%d,"project":"%s","models":{"qwen3-coder-plus":{"requests":%d,"inputTokens":%d,"outputTokens":%d,"cachedTokens":%d,"thoughtsTokens":0,"totalTokens":%d}},"tools":{"byName":{"read_file":{"count":%d}}}}`,
		sid, c.at(i, calls-1).UnixMilli(), c.at(i, 0).UnixMilli(), cwd, calls, prompt, outSum, cachedSum, prompt+outSum, calls))
}

// put writes lines to w, each ended, and returns the bytes written.
func put(w *bufio.Writer, lines ...string) int64 {
	var n int64
	for _, l := range lines {
		k, _ := w.WriteString(l + "\n")
		n += int64(k)
	}
	return n
}
