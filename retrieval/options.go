package retrieval

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Default selection sizes. Twelve tools keep the context small while leaving
// room for the right tool to rank below a near-duplicate; twenty is the
// fail-open size used when the ranking is uncertain; the hard cap bounds the
// tokens any message can cost, always-include tools included.
const (
	DefaultTopK      = 12
	DefaultFallbackK = 20
	DefaultMaxTools  = 32
	// DefaultMinCoverage: below this share of the message's matchable term
	// weight, the best tool is a weak match (see Options.MinCoverage).
	DefaultMinCoverage = 0.1
	// DefaultFlatRatio: when the best tool left out (rank TopK+1) scores at
	// least this fraction of the best tool's score, nothing stands out (see
	// Options.FlatRatio).
	DefaultFlatRatio = 0.6
)

// Environment variables read by OptionsFromEnv.
const (
	EnvTopK      = "RAGFORGE_TOOL_TOP_K"
	EnvFallbackK = "RAGFORGE_TOOL_FALLBACK_K"
	EnvMaxTools  = "RAGFORGE_TOOL_MAX"
	EnvAlways    = "RAGFORGE_TOOL_ALWAYS"
	EnvDebug     = "RAGFORGE_TOOL_DEBUG"
)

// Options control one selection. The zero value means "all defaults": a zero
// TopK, FallbackK, MaxTools, MinCoverage or FlatRatio is replaced by its
// Default constant, so callers set only what they change.
type Options struct {
	// TopK is how many retrieved tools a confident selection holds.
	TopK int
	// FallbackK is how many retrieved tools an uncertain selection holds.
	FallbackK int
	// MaxTools is the hard cap on the selection, always-include tools
	// included. Always-include tools are never dropped; retrieved tools
	// are, lowest score first.
	MaxTools int
	// Always lists tools that are selected for every message (e.g. a
	// "help" or "ask_user" tool), in addition to the TopK retrieved ones.
	Always []string
	// Debug adds the matched terms per signal to each selected tool.
	Debug bool

	// MinCoverage is the "weak" test of uncertainty: the best tool must
	// match at least this share of the message's term weight (the sum of
	// IDF of the message's distinct word terms that occur in the catalog).
	// A negative value disables the test.
	MinCoverage float64
	// MinScoreRatio cuts a confident selection after the last tool that
	// scores at least this fraction of the best tool's score, so a message
	// one tool clearly serves gets that tool and its close rivals rather
	// than TopK tools. Zero (the default) cuts nothing; an uncertain
	// selection is never cut, since its scores do not separate the tools.
	MinScoreRatio float64
	// FlatRatio is the "flat" test of uncertainty: if the best tool left
	// out (rank TopK+1) scores at least FlatRatio times the best score, the
	// ranking does not separate the relevant tools from the rest. A value
	// above 1 disables the test.
	FlatRatio float64
}

// DefaultOptions returns the defaults spelled out.
func DefaultOptions() Options {
	return Options{TopK: DefaultTopK, FallbackK: DefaultFallbackK, MaxTools: DefaultMaxTools,
		MinCoverage: DefaultMinCoverage, FlatRatio: DefaultFlatRatio}
}

// resolved fills in defaults and checks the options. A bad option is an
// error rather than being silently clamped, because it is a configuration
// mistake that would otherwise show up only as worse tool choices.
func (o Options) resolved() (Options, error) {
	d := DefaultOptions()
	if o.TopK == 0 {
		o.TopK = d.TopK
	}
	if o.FallbackK == 0 {
		o.FallbackK = max(d.FallbackK, o.TopK)
	}
	if o.MaxTools == 0 {
		o.MaxTools = max(d.MaxTools, o.FallbackK+len(o.Always))
	}
	if o.MinCoverage == 0 {
		o.MinCoverage = d.MinCoverage
	}
	if o.FlatRatio == 0 {
		o.FlatRatio = d.FlatRatio
	}
	switch {
	case o.TopK < 0:
		return o, fmt.Errorf("tool selection: top-k must be positive, got %d", o.TopK)
	case o.FallbackK < o.TopK:
		return o, fmt.Errorf("tool selection: fallback-k (%d) must be at least top-k (%d)", o.FallbackK, o.TopK)
	case o.MaxTools < o.TopK:
		return o, fmt.Errorf("tool selection: the hard cap (%d) must be at least top-k (%d)", o.MaxTools, o.TopK)
	case o.MinScoreRatio < 0 || o.MinScoreRatio > 1:
		return o, fmt.Errorf("tool selection: the score cut must be between 0 and 1, got %g", o.MinScoreRatio)
	case o.MaxTools < len(o.Always):
		return o, fmt.Errorf("tool selection: the hard cap (%d) is smaller than the always-include list (%d tools)", o.MaxTools, len(o.Always))
	}
	return o, nil
}

// Validate reports whether the options are usable, with the same rules
// Select applies.
func (o Options) Validate() error {
	_, err := o.resolved()
	return err
}

// OptionsFromEnv returns the defaults overridden by RAGFORGE_TOOL_TOP_K,
// RAGFORGE_TOOL_FALLBACK_K, RAGFORGE_TOOL_MAX (positive integers),
// RAGFORGE_TOOL_ALWAYS (comma-separated tool names) and RAGFORGE_TOOL_DEBUG
// (a boolean: 1, true, 0, false, ...). An unset or empty variable keeps the
// default; a malformed one is an error that names the variable and what it
// accepts, so a deployment typo fails at startup.
func OptionsFromEnv() (Options, error) {
	return optionsFromLookup(DefaultOptions(), os.LookupEnv)
}

// OverrideFromEnv is OptionsFromEnv over base instead of the defaults: a
// caller with sizes of its own (the MCP server's search_tools) still
// takes the deployment's RAGFORGE_TOOL_* settings, as `ragforge-plan
// select` does. The always-include tools of the variable are added to
// base's.
func OverrideFromEnv(base Options) (Options, error) {
	return optionsFromLookup(base, os.LookupEnv)
}

func optionsFromLookup(o Options, lookup func(string) (string, bool)) (Options, error) {
	o.Always = slices.Clone(o.Always)
	ints := []struct {
		name string
		dst  *int
	}{{EnvTopK, &o.TopK}, {EnvFallbackK, &o.FallbackK}, {EnvMaxTools, &o.MaxTools}}
	fallbackSet, maxSet := false, false
	for _, v := range ints {
		s, ok := lookup(v.name)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return Options{}, fmt.Errorf("%s=%q: want a positive integer", v.name, s)
		}
		*v.dst = n
		fallbackSet = fallbackSet || v.name == EnvFallbackK
		maxSet = maxSet || v.name == EnvMaxTools
	}
	if s, ok := lookup(EnvAlways); ok {
		for _, name := range strings.Split(s, ",") {
			if name = strings.TrimSpace(name); name != "" {
				o.Always = append(o.Always, name)
			}
		}
	}
	if s, ok := lookup(EnvDebug); ok && strings.TrimSpace(s) != "" {
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return Options{}, fmt.Errorf("%s=%q: want a boolean (1, true, 0, false)", EnvDebug, s)
		}
		o.Debug = b
	}
	// A larger top-k alone should not make the defaults contradict it.
	if !fallbackSet && o.FallbackK < o.TopK {
		o.FallbackK = o.TopK
	}
	if !maxSet && o.MaxTools < o.FallbackK+len(o.Always) {
		o.MaxTools = o.FallbackK + len(o.Always)
	}
	if err := o.Validate(); err != nil {
		return Options{}, fmt.Errorf("tool selection from environment (%s, %s, %s): %w", EnvTopK, EnvFallbackK, EnvMaxTools, err)
	}
	return o, nil
}
