package format

import (
	"fmt"
	"slices"
	"strings"
)

// geminiKeys are the schema keywords Gemini's function declarations accept
// (its Schema object, a subset of OpenAPI 3.0). Everything else is dropped,
// after its meaning is moved into the description where an agent needs it
// (defaults, exclusive bounds).
var geminiKeys = []string{
	"type", "format", "title", "description", "nullable", "enum", "items",
	"properties", "required", "minItems", "maxItems", "minLength", "maxLength",
	"pattern", "minimum", "maximum", "anyOf", "propertyOrdering",
	"minProperties", "maxProperties", "example",
}

// geminiFormats are the string formats the Gemini API accepts; others are
// rejected, so they are dropped.
var geminiFormats = []string{"enum", "date-time"}

// geminiSchema translates a JSON Schema into Gemini's subset:
//   - a reference to the root's $defs is replaced by the definition, as
//     Google's Gen AI SDK does (google-genai's process_schema): a
//     definition that refers to itself (the condition grammar, nested)
//     is written out once, and where it would recur the list takes any
//     item ({}), so nesting stays possible and Parse checks it;
//   - type names become Gemini's Type enum (STRING, OBJECT, …); a type list
//     becomes nullable and/or anyOf, an array alternative keeping items;
//     an enum without a type is a STRING;
//   - oneOf becomes anyOf (the nearest Gemini has); const becomes a
//     one-value enum; enum values become strings;
//   - default, exclusiveMinimum and exclusiveMaximum move into the
//     description; additionalProperties, uniqueItems, allOf, not and
//     the other keywords Gemini rejects are dropped (Validate still enforces
//     them on the call).
func geminiSchema(root *node) *node {
	g := &gemini{defs: root.get("$defs")}
	return g.schema(root)
}

// gemini translates one tool's schema, resolving its references.
type gemini struct {
	defs *node
	// open lists the definitions being written out, innermost last.
	open []string
}

func (g *gemini) schema(s *node) *node {
	if s == nil || !s.obj {
		return s
	}
	if ref := s.get("$ref").str(); ref != "" {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def := g.defs.get(name)
		if def == nil || slices.Contains(g.open, name) {
			return &node{obj: true}
		}
		g.open = append(g.open, name)
		defer func() { g.open = g.open[:len(g.open)-1] }()
		return g.schema(def)
	}
	out := &node{obj: true}
	var notes []string
	if d := s.get("default"); d != nil && !strings.Contains(s.get("description").str(), "default") {
		notes = append(notes, "default "+show(d))
	}
	if m := s.get("exclusiveMinimum"); m != nil {
		notes = append(notes, "> "+show(m))
	}
	if m := s.get("exclusiveMaximum"); m != nil {
		notes = append(notes, "< "+show(m))
	}
	if s.get("uniqueItems").value() == true {
		notes = append(notes, "no duplicates")
	}
	for i, k := range s.keys {
		v := s.vals[i]
		switch k {
		case "type":
			var items *node
			if v.arr {
				items = g.schema(s.get("items"))
			}
			geminiType(out, v, items)
		case "oneOf", "anyOf":
			var alts []*node
			if prev := out.get("anyOf"); prev != nil {
				alts = prev.items
			}
			for _, it := range v.items {
				alts = append(alts, g.schema(it))
			}
			out.set("anyOf", &node{arr: true, items: alts})
		case "const":
			out.set("enum", &node{arr: true, items: []*node{scalar(fmt.Sprint(v.value()))}})
		case "enum":
			e := &node{arr: true}
			for _, it := range v.items {
				if val, ok := it.value().(string); ok {
					e.items = append(e.items, scalar(val))
				} else {
					e.items = append(e.items, scalar(show(it)))
				}
			}
			out.set("enum", e)
		case "properties":
			p := &node{obj: true}
			for j, name := range v.keys {
				p.set(name, g.schema(v.vals[j]))
			}
			out.set("properties", p)
		case "items":
			if !v.arr && out.get("anyOf") == nil {
				out.set("items", g.schema(v))
			}
		case "format":
			if slices.Contains(geminiFormats, v.str()) {
				out.set("format", v)
			}
		default:
			if slices.Contains(geminiKeys, k) {
				out.set(k, v)
			}
		}
	}
	if out.get("type") == nil && out.get("anyOf") == nil && out.get("enum") != nil {
		out.set("type", scalar("STRING"))
	}
	if len(notes) > 0 {
		desc := out.get("description").str()
		extra := "(" + strings.Join(notes, ", ") + ")"
		if desc != "" {
			desc += " " + extra
		} else {
			desc = extra
		}
		out.set("description", scalar(desc))
	}
	return out
}

// geminiType writes a JSON Schema type as Gemini's: upper case; a list with
// "null" sets nullable; several other types become anyOf, whose ARRAY
// alternative takes items, any ({}) when the schema gives none (Gemini
// rejects an ARRAY without them).
func geminiType(out, v, items *node) {
	if !v.arr {
		out.set("type", scalar(strings.ToUpper(v.str())))
		return
	}
	var types []string
	for _, it := range v.items {
		if t := it.str(); t == "null" {
			out.set("nullable", scalar(true))
		} else {
			types = append(types, strings.ToUpper(t))
		}
	}
	switch len(types) {
	case 0:
	case 1:
		out.set("type", scalar(types[0]))
	default:
		alts := &node{arr: true}
		for _, t := range types {
			alt := &node{obj: true}
			alt.set("type", scalar(t))
			if t == "ARRAY" {
				if items == nil {
					items = &node{obj: true}
				}
				alt.set("items", items)
			}
			alts.items = append(alts.items, alt)
		}
		out.set("anyOf", alts)
	}
}

// show renders a scalar for a description: strings bare, others as JSON.
func show(n *node) string {
	if s, ok := n.value().(string); ok {
		return s
	}
	raw, _ := n.MarshalJSON()
	return string(raw)
}
