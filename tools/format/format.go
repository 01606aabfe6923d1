// Package format renders tool definitions for the LLM providers: MCP,
// OpenAI, Anthropic and Gemini each want the same three things (name,
// description, argument schema) under different keys, and Gemini accepts
// only a subset of JSON Schema. Rendering takes a slice of tools rather than
// a catalog so a subset chosen by tool retrieval renders the same way.
package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// Format names a provider's tool-definition format.
type Format string

// The formats.
const (
	// MCP is the Model Context Protocol's tools/list entry.
	MCP Format = "mcp"
	// OpenAI is a Chat Completions / Responses function tool.
	OpenAI Format = "openai"
	// Anthropic is a Messages API tool.
	Anthropic Format = "anthropic"
	// Gemini is a function declaration in Gemini's OpenAPI subset.
	Gemini Format = "gemini"
	// JSON is ragforge's own form: the tools.Tool fields, with the category
	// and read-only flag.
	JSON Format = "json"
)

// Formats lists the formats in the order help texts show them.
func Formats() []Format { return []Format{MCP, OpenAI, Anthropic, Gemini, JSON} }

// Parse reads a format name, with an error listing the valid ones.
func Parse(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == strings.ToLower(s) {
			return f, nil
		}
	}
	names := make([]string, len(Formats()))
	for i, f := range Formats() {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(names, ", "))
}

// MCPTool is one entry of an MCP tools/list result.
type MCPTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations MCPAnnotations  `json:"annotations"`
}

// MCPAnnotations are MCP's behaviour hints; clients use readOnlyHint to run
// a tool without asking the user. A nil hint is left to the protocol's
// default (for a tool that is not read-only: destructive, not idempotent,
// open world).
type MCPAnnotations struct {
	ReadOnlyHint    bool  `json:"readOnlyHint"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// OpenAITool is an OpenAI function tool.
type OpenAITool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAITool. Strict is set only when
// the schema meets structured-outputs' rules (every property required, every
// object closed, no unsupported keyword), since OpenAI rejects a strict tool
// whose schema does not.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict,omitempty"`
}

// AnthropicTool is an Anthropic Messages API tool.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// GeminiFunction is a Gemini function declaration. Parameters is omitted
// for a tool without arguments (Gemini rejects an empty object schema).
type GeminiFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func boolp(b bool) *bool { return &b }

// ToMCP renders a tool for MCP. Generated tools are read-only and
// closed-world (they read one configured database); a custom tool is what
// its ReadOnly and Behavior say, and no more. A read-only tool carries no
// destructiveHint or idempotentHint: MCP defines both as meaningful only
// when readOnlyHint is false, and every tools/list would pay for them.
func ToMCP(t *tools.Tool) MCPTool {
	a := MCPAnnotations{ReadOnlyHint: t.ReadOnly}
	b := t.Behavior
	if !t.Custom() {
		b = tools.Behavior{Idempotent: true, ClosedWorld: true}
	}
	if !t.ReadOnly && b.Additive {
		a.DestructiveHint = boolp(false)
	}
	if !t.ReadOnly && b.Idempotent {
		a.IdempotentHint = boolp(true)
	}
	if b.ClosedWorld {
		a.OpenWorldHint = boolp(false)
	}
	return MCPTool{Name: t.Name, Description: MCPDescription(t), InputSchema: t.InputSchema, Annotations: a}
}

// MCPDescription is a tool's description as an MCP server lists it: the
// graph schema a description carries (query_entities') is replaced by a
// pointer to the server's instructions, which carry it (MCPInstructions),
// so an MCP session reads the schema once.
func MCPDescription(t *tools.Tool) string {
	if t.GraphSchema == "" {
		return t.Description
	}
	return strings.Replace(t.Description, t.GraphSchema, tools.GraphSchemaTitle+": in this server's instructions.\n", 1)
}

// MCPInstructions are the instructions an MCP server over the catalog
// sends its clients, which put them in the model's context: the graph
// schema every tool refers to. They are "" for a catalog without one.
func MCPInstructions(c *tools.Catalog) string {
	return c.GraphSchema()
}

// ToOpenAI renders a tool for OpenAI, strict when the schema allows it
// (with a type beside each enum, as strict mode's documentation shows).
func ToOpenAI(t *tools.Tool) OpenAITool {
	params, strict := t.InputSchema, false
	if n, err := parseNode(t.InputSchema); err == nil && strictCompatible(n) {
		if raw, err := typeEnums(n).MarshalJSON(); err == nil {
			params, strict = raw, true
		}
	}
	return OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description, Parameters: params, Strict: strict}}
}

// ToAnthropic renders a tool for Anthropic.
func ToAnthropic(t *tools.Tool) AnthropicTool {
	return AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
}

// ToGemini renders a tool for Gemini, translating its schema into Gemini's
// OpenAPI subset.
func ToGemini(t *tools.Tool) (GeminiFunction, error) {
	n, err := parseNode(t.InputSchema)
	if err != nil {
		return GeminiFunction{}, fmt.Errorf("%s: input schema: %w", t.Name, err)
	}
	g := GeminiFunction{Name: t.Name, Description: t.Description}
	if p := geminiSchema(n); p != nil && (!p.obj || len(p.get("properties").keysOrNil()) > 0 || p.get("type").str() != "OBJECT") {
		raw, err := p.MarshalJSON()
		if err != nil {
			return GeminiFunction{}, err
		}
		g.Parameters = raw
	}
	return g, nil
}

func (n *node) keysOrNil() []string {
	if n == nil {
		return nil
	}
	return n.keys
}

// Render converts tools to the given format: a slice of MCPTool,
// OpenAITool, AnthropicTool, GeminiFunction or *tools.Tool (JSON).
func Render(ts []*tools.Tool, f Format) (any, error) {
	switch f {
	case MCP:
		out := make([]MCPTool, len(ts))
		for i, t := range ts {
			out[i] = ToMCP(t)
		}
		return out, nil
	case OpenAI:
		out := make([]OpenAITool, len(ts))
		for i, t := range ts {
			out[i] = ToOpenAI(t)
		}
		return out, nil
	case Anthropic:
		out := make([]AnthropicTool, len(ts))
		for i, t := range ts {
			out[i] = ToAnthropic(t)
		}
		return out, nil
	case Gemini:
		out := make([]GeminiFunction, len(ts))
		for i, t := range ts {
			g, err := ToGemini(t)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case JSON:
		if ts == nil {
			ts = []*tools.Tool{}
		}
		return ts, nil
	}
	_, err := Parse(string(f))
	return nil, err
}

// Marshal renders tools as one indented JSON array in the given format.
func Marshal(ts []*tools.Tool, f Format) ([]byte, error) {
	v, err := Render(ts, f)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
