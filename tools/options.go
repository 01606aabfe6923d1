package tools

import (
	"context"
	"encoding/json"
)

// Options choose which tools Generate produces. The zero value is the
// default: semantic search, relationship exploration and the specialized
// search tools on; aggregations and raw Cypher off; default limits; full-text
// search assumed available for the fields a full_text_index covers and APOC
// assumed absent.
type Options struct {
	// NoSemanticSearch leaves out semantic_search, e.g. when no embedder is
	// configured to embed the agent's query.
	NoSemanticSearch bool
	// EmbedderCaveat is what the embedder's vectors capture when it is not
	// meaning (embedder.Caveat): semantic_search's description ends with
	// it, and the engine notes it in each of its results.
	EmbedderCaveat string
	// NoRelationships leaves out explore_relationships and find_paths.
	NoRelationships bool
	// NoSpecialized leaves out the specialized search tools
	// (text_pattern_search, number_range_search, datetime_range_search,
	// enum_filter_search, distance_search) and fulltext_search; agents then
	// filter with query_entities alone.
	NoSpecialized bool
	// History adds the change-history tools of a config's
	// change_tracking block (package historytools); off by default so a
	// catalog pays for them only when asked (ragforge-plan --history).
	History bool
	// Aggregations adds the analytics tools, aggregate_entities and
	// query_relationships (off by default: aggregates scan whole labels,
	// and ranking relationships by a property reads every relationship
	// of the type).
	Aggregations bool
	// RawCypher adds run_cypher, which runs an agent-written statement. It is
	// off by default because it is the one tool whose Cypher text comes from
	// the agent; the engine still accepts only read statements.
	RawCypher bool
	// Capabilities describes the Neo4j server; nil means the default
	// assumption (see [Capabilities]).
	Capabilities *Capabilities
	// Limits bound result sizes and traversal depth; zero fields take the
	// defaults of [DefaultLimits].
	Limits Limits
	// CustomTools are application tools listed beside the generated ones.
	CustomTools []CustomTool
}

// Capabilities says what the Neo4j server can do, because some modes exist
// only where the server supports them: fuzzy text matching needs a full-text
// index over the field or APOC's string-distance functions. The planner's
// capability detection fills it; tools only reads it.
type Capabilities struct {
	// FullText says the server has the full-text indexes the config
	// declares, so fulltext_search and fuzzy matching on the indexed fields
	// work.
	FullText bool
	// APOC says APOC's text functions are installed, so fuzzy matching works
	// on every string field.
	APOC bool
	// GDS says Neo4j Graph Data Science is installed, so a config's
	// analytics tools (package internal/analytics) are offered.
	GDS bool
}

// defaultCapabilities is what Generate assumes when Options.Capabilities is
// nil: a config's full_text_index exists on the server, APOC does not.
var defaultCapabilities = Capabilities{FullText: true}

// Limits bound what one tool call may return, so an agent cannot ask for a
// whole graph; they appear as schema maximums and in descriptions.
type Limits struct {
	// DefaultLimit is the result count when the agent gives no limit.
	DefaultLimit int
	// MaxLimit is the largest limit an agent may ask for.
	MaxLimit int
	// MaxOffset bounds paging with offset (deep offsets scan the label).
	MaxOffset int
	// MaxDepth bounds explore_relationships' traversal depth and the hops
	// of aggregate_entities' over.path and of an aggregate test's path.
	MaxDepth int
	// MaxPathLength bounds the relationships of a find_paths path.
	MaxPathLength int
	// MaxExpanded bounds the breadth-first traversals of
	// explore_relationships and find_paths, which visit each entity once
	// (per start): one call reaches at most this many entities, and each
	// level of a traversal follows at most FollowedPerExpanded times as
	// many relationships. When either bound stops a traversal, the result
	// says so in a note; explore_relationships then returns what the
	// levels it finished (and the part of the level it stopped in) reached,
	// each entity still at its shortest depth.
	MaxExpanded int
	// DefaultTopK and MaxTopK bound semantic_search results.
	DefaultTopK, MaxTopK int
	// MaxBuckets bounds number_range_search histograms.
	MaxBuckets int
	// MaxGroups is the largest limit of aggregate_entities' groups. It is
	// larger than MaxLimit because a group is one short row (a label and a
	// number), and an analyst's "per hour over a month" needs hundreds.
	MaxGroups int
}

// FollowedPerExpanded is how many relationships one level of a traversal
// may follow per entity of Limits.MaxExpanded: with the default 10,000,
// a level reads at most 100,000 relationships, so a few hubs with
// thousands of relationships each cannot make a level unbounded.
const FollowedPerExpanded = 10

// DefaultLimits are the seeds' limits: 10 results by default, at most 50;
// semantic search returns 5, at most 20; an aggregate at most 1,000 groups;
// traversals reach at most 10,000 entities.
var DefaultLimits = Limits{
	DefaultLimit:  10,
	MaxLimit:      50,
	MaxOffset:     10000,
	MaxDepth:      3,
	MaxPathLength: 6,
	MaxExpanded:   10000,
	DefaultTopK:   5,
	MaxTopK:       20,
	MaxBuckets:    50,
	MaxGroups:     1000,
}

// WithDefaults fills zero fields from DefaultLimits: the limits a catalog
// describes and the planner enforces are the same.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return Limits{
		DefaultLimit:  pick(l.DefaultLimit, d.DefaultLimit),
		MaxLimit:      pick(l.MaxLimit, d.MaxLimit),
		MaxOffset:     pick(l.MaxOffset, d.MaxOffset),
		MaxDepth:      pick(l.MaxDepth, d.MaxDepth),
		MaxPathLength: pick(l.MaxPathLength, d.MaxPathLength),
		MaxExpanded:   pick(l.MaxExpanded, d.MaxExpanded),
		DefaultTopK:   pick(l.DefaultTopK, d.DefaultTopK),
		MaxTopK:       pick(l.MaxTopK, d.MaxTopK),
		MaxBuckets:    pick(l.MaxBuckets, d.MaxBuckets),
		MaxGroups:     pick(l.MaxGroups, d.MaxGroups),
	}
}

// Handler runs a custom tool. args have passed the tool's schema; the result
// is marshalled to JSON for the agent. When the config declares a tenant,
// engine.Execute calls the handler only with a tenant bound, on ctx: read
// it with tenant.From (or tenant.Required) and scope what the tool touches
// to it; the engine never calls a handler for an unbound call.
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// CustomTool is an application's own tool, listed beside the generated ones
// so the agent sees one catalog; the engine dispatches its calls to Handler
// instead of the planner.
type CustomTool struct {
	Name        string
	Description string
	// Input is the arguments' schema built with the kit (Object, Prop,
	// …), as the generated tools' are: what a handler-backed tool
	// declares, since the catalog reads its arguments' least values
	// (Schema.Least) and their advice when Neo4j runs out of memory
	// (Schema.Narrow) from it.
	Input *Schema
	// InputSchema is a JSON Schema for the arguments (an object schema),
	// for an application tool that has one already; empty (and no Input)
	// means no arguments.
	InputSchema json.RawMessage
	// Category groups the tool with others (default "custom").
	Category Category
	// ReadOnly says the tool changes nothing, which MCP clients show and
	// may use to skip confirmation.
	ReadOnly bool
	// Behavior says more of what the tool does, for clients that show or
	// act on it (MCP's annotations); the zero value claims nothing.
	Behavior Behavior
	Handler  Handler
	// StatementArg names the argument holding Cypher the agent wrote, if
	// the tool runs one (see [Tool.StatementArg]).
	StatementArg string
}

// InputJSON is the tool's input schema as JSON: Input's, else
// InputSchema (nil when it gives neither).
func (ct CustomTool) InputJSON() json.RawMessage {
	if ct.Input != nil {
		return marshal(ct.Input)
	}
	return ct.InputSchema
}

// Behavior refines ReadOnly for MCP clients, which otherwise assume the
// worst of a tool that is not read-only (it may destroy data, repeating a
// call does more, it reaches systems outside the graph).
type Behavior struct {
	// Additive says the tool's writes only add: it never changes or
	// deletes what is there (MCP destructiveHint false).
	Additive bool `json:"additive,omitempty"`
	// Idempotent says a second call with the same arguments has no
	// further effect (MCP idempotentHint).
	Idempotent bool `json:"idempotent,omitempty"`
	// ClosedWorld says the tool touches only the configured database
	// (MCP openWorldHint false).
	ClosedWorld bool `json:"closed_world,omitempty"`
}
