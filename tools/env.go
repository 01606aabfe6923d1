package tools

import (
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// Env is what a handler-backed tool runs with, one value for every such
// tool: engine.New fills it from its options and hands it to each
// registered [Handlers]' Build, so a tool package declares no options
// of its own and a new setting is added here once.
type Env struct {
	// Driver runs the tool's statements; nil gives tools that can be
	// listed but fail when called.
	Driver neo4j.DriverWithContext
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// Timeout bounds each transaction a call runs (neo4jtx.DefaultTimeout
	// when zero).
	Timeout time.Duration
	// MaxRows caps the rows a tool that runs agent-written Cypher returns
	// (0: the tool's own default).
	MaxRows int
	// MaxString, when positive, cuts longer strings of a result to
	// MaxString characters, as the generated tools' results are.
	MaxString int
	// Embedder embeds the texts a tool compares by meaning or writes
	// under a vector index; nil leaves such searches out.
	Embedder embedder.Embedder
	// Now is the clock of relative periods, recency and provenance times
	// (time.Now when nil).
	Now func() time.Time
	// Computed is the model's computed fields, compiled once by the
	// owner (engine.New), which writes recompute and conditions test.
	Computed *computed.Model
	// Capabilities are the server's (GDS for the analytics tools).
	Capabilities Capabilities
	// History offers the change-history tools (Options.History).
	History bool
}

// WithDefaults fills the zero Timeout and Now: what every tool would
// otherwise default on its own.
func (e Env) WithDefaults() Env {
	if e.Timeout <= 0 {
		e.Timeout = neo4jtx.DefaultTimeout
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	return e
}

// EmbedderCaveat is what the environment's embedder's vectors capture
// when it is not meaning (embedder.Caveat), "" when it is.
func (e Env) EmbedderCaveat() string { return embedder.Caveat(e.Embedder) }
