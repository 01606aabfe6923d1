package engine

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
)

// Documents describes each tool of a catalog for tool retrieval. A generated
// tool's document carries, beyond its description, what lets a short or
// non-English message find it: the names of the entities and fields it
// reaches, and the keywords and examples of the config's tool_docs for the
// tool and for every entity (examples written for an entity serve all its
// tools). Custom tools are described by their definition alone.
func Documents(m *model.Model, c *tools.Catalog) []retrieval.Document {
	docs := make([]retrieval.Document, 0, len(c.Tools))
	for _, t := range c.Tools {
		d := retrieval.Document{
			Name:        t.Name,
			Category:    string(t.Category),
			Description: t.Description,
			WhenToUse:   firstLine(t.Description),
			Parameters:  parameters(t.InputSchema),
		}
		if !t.Custom() {
			addDocs(&d, m.ToolDocs[t.Name])
			for _, e := range m.Entities {
				d.Keywords = append(d.Keywords, e.Name)
				addDocs(&d, m.ToolDocs[e.Name])
			}
		}
		docs = append(docs, d)
	}
	return docs
}

func addDocs(d *retrieval.Document, td model.ToolDoc) {
	d.Keywords = append(d.Keywords, td.Keywords...)
	for _, ex := range td.Examples {
		d.Examples = append(d.Examples, retrieval.Example{User: ex.User, Notes: ex.Notes})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// parameters lists the top-level properties of a tool's JSON Schema.
func parameters(schema json.RawMessage) []retrieval.Parameter {
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	params := make([]retrieval.Parameter, 0, len(names))
	for _, name := range names {
		p := s.Properties[name]
		param := retrieval.Parameter{Name: name, Description: p.Description}
		if typ, ok := p.Type.(string); ok {
			param.Type = typ
		}
		for _, v := range p.Enum {
			if str, ok := v.(string); ok {
				param.Enum = append(param.Enum, str)
			}
		}
		for _, r := range s.Required {
			param.Required = param.Required || r == name
		}
		params = append(params, param)
	}
	return params
}
