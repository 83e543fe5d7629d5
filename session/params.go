package session

import (
	"encoding/json"
	"reflect"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
	"github.com/saverd/saverd/state/rules"
)

// The params and results of every method, with the camelCase field names protocol.md shows. Optional
// fields are pointers.

// InitializeParams is initialize's params.
type InitializeParams struct {
	ClientInfo   *ClientInfo   `json:"clientInfo,omitempty"`
	Capabilities *Capabilities `json:"capabilities,omitempty"`
	StoreDir     string        `json:"storeDir,omitempty"`
	// JudgeBudget is the host's cap on what the judges may spend on automatic runs, a share of each
	// session's own tokens in 0..1 (default 0.05); a project's .saverd.json and session.start override it.
	JudgeBudget *float64 `json:"judgeBudget,omitempty"`
	// Detectors asks for the detectors that need no model (state/detect) at the end of every main-loop
	// turn of this host's sessions, their findings as cards; without it a host keeps the seed's
	// behaviour. A project's .saverd.json `"detectors": false` still turns them off.
	Detectors *bool `json:"detectors,omitempty"`
}

// ClientInfo names the host.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Capabilities is what the host can do for the daemon.
type Capabilities struct {
	// Fork: the host answers model.fork. Without it no judge or process run is ever started.
	Fork bool `json:"fork,omitempty"`
	// Invalidate: the host wants ui.invalidate after every change (default true).
	Invalidate *bool `json:"invalidate,omitempty"`
}

// InitializeResult is initialize's result.
type InitializeResult struct {
	ServerInfo      ServerInfo `json:"serverInfo"`
	ProtocolVersion string     `json:"protocolVersion"`
}

// ServerInfo names the daemon.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// tokenCount reads a breakdown entry given either as a number of tokens or, as ContextSaver's host
// reported it, as a list of items each with its tokens.
type tokenCount int64

func (t *tokenCount) UnmarshalJSON(b []byte) error {
	var n float64
	if err := json.Unmarshal(b, &n); err == nil {
		*t = tokenCount(n)
		return nil
	}
	var items []struct {
		Tokens float64 `json:"tokens"`
	}
	if err := json.Unmarshal(b, &items); err != nil {
		// A type error, so the decoder names the member: `params.usage.breakdown.memoryFiles: want number, …`.
		return &json.UnmarshalTypeError{Value: intake.JSONKind(b), Type: reflect.TypeOf(int64(0))}
	}
	var sum float64
	for _, it := range items {
		sum += it.Tokens
	}
	*t = tokenCount(sum)
	return nil
}

// Breakdown is the fixed per-turn overhead of a session.
type Breakdown struct {
	MemoryFiles *tokenCount `json:"memoryFiles,omitempty"`
	MCPTools    *tokenCount `json:"mcpTools,omitempty"`
	Agents      *tokenCount `json:"agents,omitempty"`
}

// UsageParams is a context-window sample with the fixed per-turn overhead beside it.
type UsageParams struct {
	state.Usage
	Breakdown *Breakdown `json:"breakdown,omitempty"`
}

// SessionStartParams is session.start's params.
type SessionStartParams struct {
	Hook
	Cwd      string                  `json:"cwd"`
	Usage    *UsageParams            `json:"usage,omitempty"`
	Messages []intake.SessionMessage `json:"messages,omitempty"`
	Debug    bool                    `json:"debug,omitempty"`
	// JudgeBudget is this session's cap (see InitializeParams.JudgeBudget); it wins over the project's.
	JudgeBudget *float64 `json:"judgeBudget,omitempty"`
}

// SessionStartResult is session.start's result.
type SessionStartResult struct {
	Adopted int           `json:"adopted"`
	Armed   bool          `json:"armed"`
	Command state.Command `json:"command"`
}

// Hook is what every session method carries: the session, and the host's clock in ms (the daemon's
// own clock only when it is absent, so a replay is deterministic).
type Hook struct {
	SessionID string `json:"sessionId"`
	At        *int64 `json:"at,omitempty"`
}

// Ref is the session and the time the params name, for a caller that holds any session method's params.
func (h Hook) Ref() Hook { return h }

// SessionParams is the params of the methods that name only a session and a time.
type SessionParams struct {
	Hook
}

// ToolCallParams is tool.call's params.
type ToolCallParams struct {
	Hook
	Ms     float64           `json:"ms"`
	Event  json.RawMessage   `json:"event"`
	Result intake.ToolResult `json:"result"`
}

// ContextResult is the texts to append to a tool result or a prompt.
type ContextResult struct {
	Context []string `json:"context"`
}

// TurnUsage is what a turn was billed.
type TurnUsage struct {
	Model                    *string `json:"model,omitempty"`
	InputTokens              int64   `json:"input_tokens"`
	OutputTokens             int64   `json:"output_tokens"`
	CacheReadInputTokens     int64   `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64   `json:"cache_creation_input_tokens"`
}

// TurnCompleteParams is turn.complete's params.
type TurnCompleteParams struct {
	Hook
	AgentID    *string       `json:"agentId,omitempty"`
	Usage      *TurnUsage    `json:"usage,omitempty"`
	DurationMs int64         `json:"durationMs"`
	Answer     string        `json:"answer"`
	IsAborted  bool          `json:"isAborted"`
	Reason     state.TurnEnd `json:"reason"`
	Context    *state.Usage  `json:"context,omitempty"` // the window after the turn
}

// AgentSpawnParams is agent.spawn's params.
type AgentSpawnParams struct {
	Hook
	Prompt string `json:"prompt"`
	Fork   bool   `json:"fork,omitempty"`
}

// AgentSpawnResult is agent.spawn's result: the prompt to start the agent with.
type AgentSpawnResult struct {
	Prompt  string `json:"prompt"`
	SpawnID string `json:"spawnId"`
}

// AgentSpawnedParams is agent.spawned's params: the spawn started (or failed, with no agentId).
type AgentSpawnedParams struct {
	Hook
	SpawnID string  `json:"spawnId"`
	AgentID *string `json:"agentId,omitempty"`
}

// Origin is who submitted a prompt.
type Origin struct {
	Kind string `json:"kind"`
}

// PromptSubmitParams is prompt.submit's params.
type PromptSubmitParams struct {
	Hook
	Text   string  `json:"text"`
	Origin *Origin `json:"origin,omitempty"`
	TurnID *string `json:"turnId,omitempty"`
}

// CommandRunParams is command.run's params.
type CommandRunParams struct {
	Hook
	Command string `json:"command"`
	Args    string `json:"args"`
}

// TextResult is a reply to show the person; Text is omitted when there is none.
type TextResult struct {
	Text *string `json:"text,omitempty"`
}

// UIActionParams is ui.action's params.
type UIActionParams struct {
	Hook
	Action    string          `json:"action"`
	PatternID string          `json:"patternId,omitempty"`
	Text      *string         `json:"text,omitempty"`
	Artifact  *rules.Artifact `json:"artifact,omitempty"`
}

// ColumnsParams is ui.columns' params.
type ColumnsParams struct {
	Hook
	Columns int `json:"columns"`
}

// ViewTextParams is view.text's params.
type ViewTextParams struct {
	Hook
	View  string `json:"view"`
	Width int    `json:"width,omitempty"`
}

// ImpactParams is impact.query's and impact.pending's params, the inputs of `saverd impact`.
type ImpactParams struct {
	// Sessions are sessions JSONL files; none reads this machine's history instead: the agents' logs
	// (ClaudeDirs, CodexDirs, else their defaults) and the daemon's sessions log.
	Sessions   []string `json:"sessions,omitempty"`
	ClaudeDirs []string `json:"claude_dirs,omitempty"`
	CodexDirs  []string `json:"codex_dirs,omitempty"`
	Repos      []string `json:"repos,omitempty"`
	Decisions  string   `json:"decisions,omitempty"`
	Days       *int     `json:"days,omitempty"` // nil: impact.DefaultDays
	Now        string   `json:"now,omitempty"`
}
