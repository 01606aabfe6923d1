package engine

// The handler-backed tool families register themselves from init
// (tools.RegisterHandlers), each in its package beside its handlers;
// importing them here is what puts them in every engine's catalog, in
// the rank order each declares.
import (
	_ "github.com/ragforge/ragforge/internal/analytics"
	_ "github.com/ragforge/ragforge/internal/history/historytools"
	_ "github.com/ragforge/ragforge/internal/memory/explore"
	_ "github.com/ragforge/ragforge/internal/memory/traverse"
	_ "github.com/ragforge/ragforge/internal/memory/write"
	_ "github.com/ragforge/ragforge/internal/similar"
	_ "github.com/ragforge/ragforge/internal/tree"
)
