package codex

import "github.com/saverd/saverd/agentlog"

// CacheSetting: a rollout is read alone, one way (agentlog.CacheableReader).
func (rollout) CacheSetting(agentlog.File) (string, bool) { return "", true }

// CacheDeps: nothing but the rollout.
func (rollout) CacheDeps(agentlog.File, []agentlog.Record) []string { return nil }

var _ agentlog.CacheableReader = rollout{}
