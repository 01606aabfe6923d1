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

// maxConditions bounds the conditions of one list.
const maxConditions = 20

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
	// StatementArg is the argument holding Cypher the agent wrote
	// (run_cypher's "/query", traverse's "/cypher"), "" for every other
	// tool: a failure readonly.Fault finds the statement's fault is the
	// agent's CallError on it.
	StatementArg string `json:"-"`

	// kind is the generated tool's declaration; nil for a custom tool.
	kind *Kind
	// least are the least values its arguments declare (Schema.Least).
	least map[string]int64
	// narrowing are its arguments' advice when Neo4j runs out of memory
	// (Schema.Narrow).
	narrowing []Narrowed
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
	// conditionOffers are the fields and operators conditions offer, per
	// entity (see [Generator.QueryOffers]).
	conditionOffers []*EntityOffer
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
// properties. query_entities' description carries it (the tool whose
// Tool.GraphSchema is set), so a whole catalog describes the graph once;
// an MCP server sends it as its instructions instead, and an application
// that hands its LLM only some tools (tool retrieval) puts it in the
// system prompt. It is "" when the catalog has no such tool.
func (c *Catalog) GraphSchema() string {
	for _, t := range c.Tools {
		if t.GraphSchema != "" {
			return t.GraphSchema
		}
	}
	return ""
}

// Limits returns the limits the catalog was generated with (defaults
// filled), which the planner applies when an agent omits a limit.
func (c *Catalog) Limits() Limits { return c.limits }

// toolNamePattern is what every provider accepts as a tool name (Gemini is
// the strictest: letters, digits, '_', '.', '-', at most 64).
var toolNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// Generate builds the catalog for m from the generated tools kinds (in
// rank order; package planner declares them, and planner.Generate calls
// this with its own) and opts.CustomTools. Each kind is generated only
// when the options offer it and the config supports it (semantic_search
// needs a vector index, distance_search a point field, …). It fails on
// kinds that clash or on a bad custom tool: a name that is invalid or
// taken, a missing handler, or an input schema that does not compile.
func Generate(m *model.Model, kinds []Kind, opts Options) (*Catalog, error) {
	if m == nil {
		return nil, fmt.Errorf("tools: nil model")
	}
	kinds, err := ordered(kinds)
	if err != nil {
		return nil, err
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
	c.conditionOffers = queryOffers(m)
	g := &Generator{c: c, m: m, opts: opts, described: &described{kind: map[string]model.Type{}}}
	for i := range kinds {
		k := &kinds[i]
		if k.Offered != nil && !k.Offered(opts) {
			continue
		}
		if out := k.Generate(g); out != nil {
			g.add(k, out)
		}
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
	if ct.Input != nil && len(ct.InputSchema) > 0 {
		return fmt.Errorf("tools: custom tool %q has both Input and InputSchema (give one)", ct.Name)
	}
	in := ct.InputJSON()
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
	t := &Tool{Name: ct.Name, Description: ct.Description, InputSchema: in, ReadOnly: ct.ReadOnly, Behavior: ct.Behavior, Category: cat, Handler: ct.Handler, StatementArg: ct.StatementArg,
		least: leastValues(ct.Input), narrowing: narrowings(ct.Input)}
	if err := c.compile(t); err != nil {
		return fmt.Errorf("tools: custom tool %q: %w", ct.Name, err)
	}
	c.Tools = append(c.Tools, t)
	return nil
}
