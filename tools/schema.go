package tools

import (
	"bytes"
	"encoding/json"
)

// Schema is the subset of JSON Schema the generator writes. It is a struct
// rather than a map so properties keep the order in which they matter to an
// agent (entity_type before field before value) and golden files stay
// readable.
type Schema struct {
	// Ref points at a definition of the root's Defs ("#/$defs/condition");
	// a schema with Ref has nothing else, since OpenAI's strict mode
	// rejects siblings of $ref.
	Ref  string
	Type string
	// Types is a list of types ("type": [...]), when Type is empty.
	Types            []string
	Description      string
	Enum             []string
	Default          any
	Minimum          *float64
	ExclusiveMinimum *float64
	Maximum          *float64
	MinLength        *int
	MaxLength        *int
	Pattern          string
	MinItems         *int
	MaxItems         *int
	UniqueItems      bool
	Items            *Schema
	AnyOf            []*Schema
	Props            []Prop
	Required         []string
	// Defs are the root's definitions ("$defs"), written last: a grammar
	// that nests (conditions in conditions) is written once and referred
	// to at every level.
	Defs []Prop
	// Least, on an argument of a generated tool, is its least value,
	// which the schema leaves unsaid and Parse checks (a count of
	// results, hops or buckets is at least 1, an offset at least 0):
	// decoded, a 0 would read as the argument not given, and take the
	// default. It is not written into the schema.
	Least *int64
	// Values, on an object, is the schema of the properties Props does
	// not name (additionalProperties), for a map such as explore's hits
	// per entity; nil allows none.
	Values *Schema
	// Open, on an object, allows properties Props does not name, of any
	// value (additionalProperties unsaid): a statement's parameters, a
	// relationship's properties the handler sorts out itself.
	Open bool
	// Narrow, on an argument, says how it makes a call do less: the
	// advice a call Neo4j ran out of memory for gives on it. It is not
	// written into the schema (see [Narrowing]).
	Narrow *Narrowing
}

// Least points at an argument's least value (Schema.Least).
func Least(n int64) *int64 { return &n }

// Prop is one named property of an object schema.
type Prop struct {
	Name   string
	Schema *Schema
}

// Num points at a number bound of a schema (Minimum, Maximum, …).
func Num(f float64) *float64 { return &f }

// Count points at a count bound of a schema (MinLength, MaxItems, …).
func Count(n int) *int { return &n }

// Object returns a closed object schema (additionalProperties: false) with
// the given properties in order.
func Object(props ...Prop) *Schema { return &Schema{Type: "object", Props: props} }

// Require marks properties required and returns the schema.
func (s *Schema) Require(names ...string) *Schema {
	s.Required = append(s.Required, names...)
	return s
}

// MarshalJSON writes keys in a fixed order. Every closed object schema
// gets "properties" (even when empty: some clients reject an object schema
// without it) and "additionalProperties": false, so a misspelt argument is
// an error the agent sees rather than a silently ignored key; an open one
// (Open, Values), never a tool's root, says only what it has.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v any) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(marshal(key))
		b.WriteByte(':')
		b.Write(marshal(v))
	}
	if s.Ref != "" {
		put("$ref", s.Ref)
	}
	// An enum of strings says its type: "type": "string" beside it would
	// cost every enum of every catalog tokens and tell the agent nothing.
	// (Gemini's rendering and OpenAI's strict one, which want it, add it.)
	if s.Type != "" && (s.Type != "string" || s.Enum == nil) {
		put("type", s.Type)
	}
	if s.Types != nil {
		put("type", s.Types)
	}
	if s.Description != "" {
		put("description", s.Description)
	}
	if s.Enum != nil {
		put("enum", s.Enum)
	}
	if s.Default != nil {
		put("default", s.Default)
	}
	if s.Minimum != nil {
		put("minimum", *s.Minimum)
	}
	if s.ExclusiveMinimum != nil {
		put("exclusiveMinimum", *s.ExclusiveMinimum)
	}
	if s.Maximum != nil {
		put("maximum", *s.Maximum)
	}
	if s.MinLength != nil {
		put("minLength", *s.MinLength)
	}
	if s.MaxLength != nil {
		put("maxLength", *s.MaxLength)
	}
	if s.Pattern != "" {
		put("pattern", s.Pattern)
	}
	if s.MinItems != nil {
		put("minItems", *s.MinItems)
	}
	if s.MaxItems != nil {
		put("maxItems", *s.MaxItems)
	}
	if s.UniqueItems {
		put("uniqueItems", true)
	}
	if s.Items != nil {
		put("items", s.Items)
	}
	if s.AnyOf != nil {
		put("anyOf", s.AnyOf)
	}
	if s.Type == "object" {
		closed := !s.Open && s.Values == nil
		if closed || len(s.Props) > 0 {
			put("properties", orderedProps(s.Props))
		}
		if len(s.Required) > 0 {
			put("required", s.Required)
		}
		switch {
		case s.Values != nil:
			put("additionalProperties", s.Values)
		case closed:
			put("additionalProperties", false)
		}
	}
	if s.Defs != nil {
		put("$defs", orderedProps(s.Defs))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// orderedProps marshals properties as a JSON object in declaration order.
type orderedProps []Prop

func (p orderedProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, pr := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshal(pr.Name))
		b.WriteByte(':')
		raw, err := pr.Schema.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without HTML escaping: descriptions and operators such
// as "<=" stay readable (and cheaper in tokens) than "\u003c=".
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
