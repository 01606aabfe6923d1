package tools

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ragforge/ragforge/model"
)

// Category groups tools by what they do, so a client or the retrieval
// package can offer related tools together.
type Category string

// The categories of generated tools.
const (
	// CategoryQuery is structured lookup: query_entities, get_entity_by_id.
	CategoryQuery Category = "query"
	// CategorySearch finds entities by text, meaning, numbers, dates or place.
	CategorySearch Category = "search"
	// CategoryGraph follows relationships.
	CategoryGraph Category = "graph"
	// CategoryAnalytics computes aggregates.
	CategoryAnalytics Category = "analytics"
	// CategoryCypher runs agent-written Cypher (run_cypher).
	CategoryCypher Category = "cypher"
	// CategoryCustom is the default for application tools.
	CategoryCustom Category = "custom"
)

// The names of the generated tools; they are also the keys of an entity's
// exposed_tools in the config (schema #ToolNames).
const (
	QueryEntities         = "query_entities"
	GetEntityByID         = "get_entity_by_id"
	ExploreRelationships  = "explore_relationships"
	SemanticSearch        = "semantic_search"
	FulltextSearch        = "fulltext_search"
	TextPatternSearch     = "text_pattern_search"
	NumberRangeSearch     = "number_range_search"
	DatetimeRangeSearch   = "datetime_range_search"
	EnumFilterSearch      = "enum_filter_search"
	DistanceSearch        = "distance_search"
	AggregateEntities     = "aggregate_entities"
	RunCypher             = "run_cypher"
	FindPaths             = "find_paths"
	maxConditions         = 20
	maxFieldsInProjection = 100
)

// Tool is one tool definition in provider-neutral form; package
// tools/format renders it for MCP, OpenAI, Anthropic or Gemini.
type Tool struct {
	// Name is what the agent calls.
	Name string `json:"name"`
	// Description tells the agent what the tool does and everything about
	// the graph it needs to call it well.
	Description string `json:"description"`
	// GraphSchema is set on the one tool whose description carries the
	// graph's schema (query_entities): that part of Description, the
	// entities, fields and relationships the other tools refer to. An MCP
	// server sends it once, as its instructions, and the MCP rendering
	// leaves it out of the tool (see [Catalog.GraphSchema]).
	GraphSchema string `json:"-"`
	// InputSchema is the JSON Schema (draft 2020-12) of the arguments.
	InputSchema json.RawMessage `json:"input_schema"`
	// ReadOnly says calling the tool changes nothing (true for every
	// generated tool), which MCP clients use to skip confirmation.
	ReadOnly bool `json:"read_only"`
	// Behavior says more of a custom tool's effects (generated tools are
	// read-only, idempotent and closed-world without saying so).
	Behavior Behavior `json:"behavior,omitzero"`
	Category Category `json:"category"`
	// Handler is set for custom tools: the engine calls it instead of the
	// planner.
	Handler Handler `json:"-"`
}

// Custom reports whether the tool is an application's own tool, run by its
// Handler rather than planned into Cypher.
func (t *Tool) Custom() bool { return t.Handler != nil }

// Metadata summarizes a catalog for listings and `ragforge-plan vet`.
type Metadata struct {
	EntityCount int `json:"entity_count"`
	ToolCount   int `json:"tool_count"`
	// SearchableFieldCount counts the stored fields of all entities.
	SearchableFieldCount int `json:"searchable_field_count"`
	// ComputedFieldCount counts the computed fields of all entities.
	ComputedFieldCount int `json:"computed_field_count"`
}

// Catalog is the set of tools generated for one model, plus what Validate
// needs to check a call: the compiled schemas and, per tool, which fields
// and modes each entity offers.
type Catalog struct {
	// Tools in a stable order: generated tools first, then custom tools in
	// the order given.
	Tools    []*Tool  `json:"tools"`
	Metadata Metadata `json:"metadata"`

	model    *model.Model
	limits   Limits
	caps     Capabilities
	compiled map[string]*jsonschema.Schema
	offers   map[string][]*EntityOffer
	edges    []edge
}

// Tool returns the tool with the given name, or nil.
func (c *Catalog) Tool(name string) *Tool {
	for _, t := range c.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Names lists the tool names in catalog order: the valid choices an error
// about an unknown tool names.
func (c *Catalog) Names() []string {
	names := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		names[i] = t.Name
	}
	return names
}

// GraphSchema is the graph's schema the generated tools refer to: every
// entity query_entities offers with its unique field and fields (types,
// descriptions, computed expressions) and every relationship with its
// properties. query_entities' description carries it, so a whole catalog
// describes the graph once; an MCP server sends it as its instructions
// instead, and an application that hands its LLM only some tools (tool
// retrieval) puts it in the system prompt. It is "" when the catalog has
// no query_entities.
func (c *Catalog) GraphSchema() string {
	if t := c.Tool(QueryEntities); t != nil {
		return t.GraphSchema
	}
	return ""
}

// Limits returns the limits the catalog was generated with (defaults
// filled), which the planner applies when an agent omits a limit.
func (c *Catalog) Limits() Limits { return c.limits }

// toolNamePattern is what every provider accepts as a tool name (Gemini is
// the strictest: letters, digits, '_', '.', '-', at most 64).
var toolNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// Generate builds the catalog for m. Each tool is generated only when the
// config supports it (semantic_search needs a vector index, distance_search
// a point field, …). It fails only on a bad custom tool: a name that is
// invalid or taken, a missing handler, or an input schema that does not
// compile.
func Generate(m *model.Model, opts Options) (*Catalog, error) {
	if m == nil {
		return nil, fmt.Errorf("tools: nil model")
	}
	c := &Catalog{
		model:    m,
		limits:   opts.Limits.WithDefaults(),
		caps:     defaultCapabilities,
		compiled: map[string]*jsonschema.Schema{},
		offers:   map[string][]*EntityOffer{},
	}
	if opts.Capabilities != nil {
		c.caps = *opts.Capabilities
	}
	c.edges = collectEdges(m)
	g := &generator{c: c, m: m, opts: opts, described: &described{kind: map[string]model.Type{}}}
	g.queryEntities()
	g.getEntityByID()
	if !opts.NoRelationships {
		g.exploreRelationships()
		g.findPaths()
	}
	if !opts.NoSemanticSearch {
		g.semanticSearch()
	}
	if !opts.NoSpecialized {
		g.fulltextSearch()
		g.textPatternSearch()
		g.numberRangeSearch()
		g.datetimeRangeSearch()
		g.enumFilterSearch()
		g.distanceSearch()
	}
	if opts.Aggregations {
		g.aggregateEntities()
	}
	if opts.RawCypher {
		g.runCypher()
	}
	for _, t := range c.Tools {
		if err := c.compile(t); err != nil {
			return nil, fmt.Errorf("tools: generated schema of %s: %w", t.Name, err)
		}
	}
	for _, ct := range opts.CustomTools {
		if err := c.addCustom(ct); err != nil {
			return nil, err
		}
	}
	c.Metadata.EntityCount = len(m.Entities)
	c.Metadata.ToolCount = len(c.Tools)
	for _, e := range m.Entities {
		c.Metadata.SearchableFieldCount += len(e.Fields)
		c.Metadata.ComputedFieldCount += len(e.Computed)
	}
	return c, nil
}

// addCustom checks and appends an application tool.
func (c *Catalog) addCustom(ct CustomTool) error {
	if !toolNamePattern.MatchString(ct.Name) {
		return fmt.Errorf("tools: custom tool name %q is invalid (letters, digits, '_', '.', '-'; at most 64, not starting with a digit)", ct.Name)
	}
	if c.Tool(ct.Name) != nil {
		return fmt.Errorf("tools: custom tool %q clashes with a tool already in the catalog", ct.Name)
	}
	if ct.Handler == nil {
		return fmt.Errorf("tools: custom tool %q has no handler", ct.Name)
	}
	if ct.Description == "" {
		return fmt.Errorf("tools: custom tool %q has no description (the agent chooses tools by it)", ct.Name)
	}
	in := ct.InputSchema
	if len(in) == 0 {
		in = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	var probe map[string]any
	if err := json.Unmarshal(in, &probe); err != nil {
		return fmt.Errorf("tools: custom tool %q: input schema is not a JSON object: %v", ct.Name, err)
	}
	if probe["type"] != "object" {
		return fmt.Errorf("tools: custom tool %q: input schema must have \"type\": \"object\" (tool arguments are an object)", ct.Name)
	}
	if _, ok := probe["properties"]; !ok {
		// Some clients reject an object schema without properties.
		probe["properties"] = map[string]any{}
		in, _ = json.Marshal(probe)
	}
	cat := ct.Category
	if cat == "" {
		cat = CategoryCustom
	}
	t := &Tool{Name: ct.Name, Description: ct.Description, InputSchema: in, ReadOnly: ct.ReadOnly, Behavior: ct.Behavior, Category: cat, Handler: ct.Handler}
	if err := c.compile(t); err != nil {
		return fmt.Errorf("tools: custom tool %q: %w", ct.Name, err)
	}
	c.Tools = append(c.Tools, t)
	return nil
}
