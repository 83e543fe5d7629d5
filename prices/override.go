package prices

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// overrideFile is the override file's shape:
//
//	{"models": {"gpt-5.6-terra": [{"from": "2026-11-01", "input": 3, "output": 12, "cache_read": 0.3,
//	                               "cache_write_5m": 3, "cache_write_1h": 3}]}}
//
// Each model's list replaces that model's whole embedded history; "from" is a date (YYYY-MM-DD) or RFC
// 3339, and may be left out for "always".
type overrideFile struct {
	Models map[string][]overrideEntry `json:"models"`
}

type overrideEntry struct {
	From string `json:"from"`
	Rate
}

// Parse reads an override table from its JSON text. A negative price, a bad date or an empty history is an
// error naming the model, so a typo never silently prices a model at 0.
func Parse(data []byte) (*Table, error) {
	var f overrideFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	if f.Models == nil {
		return nil, errors.New(`prices: no "models" object`)
	}
	t := &Table{}
	for model, entries := range f.Models {
		if len(entries) == 0 {
			return nil, fmt.Errorf("prices: model %q: no entries", model)
		}
		for i, e := range entries {
			from, err := parseFrom(e.From)
			if err != nil {
				return nil, fmt.Errorf("prices: model %q entry %d: from: %w", model, i, err)
			}
			if err := e.Rate.check(); err != nil {
				return nil, fmt.Errorf("prices: model %q entry %d: %w", model, i, err)
			}
			t.add(model, from, e.Rate)
		}
	}
	return t, nil
}

func parseFrom(s string) (time.Time, error) {
	if s == "" {
		return since, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

func (r Rate) check() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"input", r.Input}, {"output", r.Output}, {"cache_read", r.CacheRead}, {"cache_write_5m", r.CacheWrite5m},
		{"cache_write_1h", r.CacheWrite1h}, {"long_input", r.LongInput}, {"long_output", r.LongOutput}} {
		if p.v < 0 {
			return fmt.Errorf("%s: negative price %v", p.name, p.v)
		}
	}
	if r.LongAbove < 0 {
		return fmt.Errorf("long_above: negative %d", r.LongAbove)
	}
	if r.LongAbove > 0 && (r.LongInput == 0 || r.LongOutput == 0) {
		return errors.New("long_above needs long_input and long_output")
	}
	return nil
}

// LoadFile is the embedded table with the override file at path applied. A path that does not exist is no
// override (the embedded table alone); one that cannot be read or parsed is an error naming it.
func LoadFile(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read prices %s: %w", path, err)
	}
	over, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Default().With(over), nil
}
