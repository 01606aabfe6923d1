package retrieval

import (
	"encoding/json"
	"slices"
)

// Document is what retrieval knows about one tool. It is deliberately richer
// than a tool definition: keywords (in any language) and example messages are
// what let a short or non-English message find the right tool, and they are
// never sent to the LLM, so they cost no context tokens.
type Document struct {
	// Name is the tool name the agent calls; it is unique in an Index.
	Name string `json:"name"`
	// Category groups related tools; it is indexed with the description.
	Category string `json:"category,omitempty"`
	// Description says what the tool does.
	Description string `json:"description"`
	// WhenToUse says when an agent should pick the tool; indexed with the
	// description because it is written in the same register. A catalog
	// file's list form is kept one situation per line.
	WhenToUse string `json:"whenToUse,omitempty"`
	// Keywords are extra search terms in any language.
	Keywords []string `json:"keywords,omitempty"`
	// Examples are user messages the tool serves.
	Examples []Example `json:"examples,omitempty"`
	// Parameters are the tool's arguments, in a stable order.
	Parameters []Parameter `json:"parameters,omitempty"`
}

// Example is one user message that a tool serves. Notes explain the example
// to a human reader and are not indexed, so that a note such as "Arabic:
// which files…" cannot make the tool match unrelated messages.
type Example struct {
	User  string `json:"user"`
	Notes string `json:"notes,omitempty"`
}

// Parameter is one argument of a tool. Its name, description and enum values
// are indexed with a low weight: they say what a tool can be asked about
// (e.g. a "currency" enum) without describing what it is for.
type Parameter struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Required    bool     `json:"required,omitempty"`
}

// Definition returns the tool as an LLM sees it: a Gemini/OpenAPI-style
// function declaration (name, description, parameters object schema). It is
// what selection saves when a tool is left out, so token accounting is based
// on it rather than on the richer Document.
func (d Document) Definition() map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range d.Parameters {
		prop := map[string]any{"type": p.Type}
		if p.Description != "" {
			prop["description"] = p.Description
		}
		if len(p.Enum) > 0 {
			prop["enum"] = p.Enum
		}
		props[p.Name] = prop
		if p.Required {
			required = append(required, p.Name)
		}
	}
	params := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		slices.Sort(required)
		params["required"] = required
	}
	return map[string]any{"name": d.Name, "description": d.Description, "parameters": params}
}

// ApproxTokens estimates how many context tokens the tool's definition costs:
// the byte length of its compact JSON [Document.Definition] divided by four,
// rounded up. Four bytes per token is the usual approximation for English
// JSON with BPE tokenizers (cl100k, o200k); it is used only to compare
// shares of a catalog, where the constant cancels out.
func (d Document) ApproxTokens() int {
	b, err := json.Marshal(d.Definition())
	if err != nil { // cannot happen: only strings, slices and maps
		return 0
	}
	return (len(b) + 3) / 4
}
