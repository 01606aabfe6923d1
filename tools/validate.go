package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// maxArgsBytes bounds the arguments of one call: tool arguments are a few
// names and values, so anything larger is a runaway agent.
const maxArgsBytes = 1 << 20

// compile compiles a tool's input schema with a real JSON Schema validator
// (draft 2020-12); the compiled schema is what Validate checks calls with.
func (c *Catalog) compile(t *Tool) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.InputSchema))
	if err != nil {
		return fmt.Errorf("input schema is not JSON: %w", err)
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	url := "ragforge:///tools/" + t.Name + ".json"
	if err := comp.AddResource(url, doc); err != nil {
		return err
	}
	s, err := comp.Compile(url)
	if err != nil {
		return err
	}
	c.compiled[t.Name] = s
	return nil
}

// Validate checks the arguments of a call to the named tool: first against
// the tool's JSON Schema, then the rules a schema cannot say compactly (a
// field must belong to the chosen entity, a mode to the chosen field, a
// value must fit the field's type). It returns nil or a *[CallError] that
// names each problem and its valid choices. It never panics.
func (c *Catalog) Validate(tool string, args json.RawMessage) error {
	_, err := c.Parse(tool, args)
	return err
}

// Parse is [Catalog.Validate] that also returns the decoded arguments, with
// defaults filled in: what the tool's [Kind] Parse returns for a generated
// tool (a pointer to its argument type, e.g. *planner.QueryEntitiesArgs),
// or the raw arguments
// (json.RawMessage) for a custom tool. The error is a *[CallError].
func (c *Catalog) Parse(tool string, args json.RawMessage) (any, error) {
	t := c.Tool(tool)
	if t == nil {
		return nil, Fail(tool, "", c.Names(), "unknown tool %q", tool)
	}
	fail := func(p problems) error { return &CallError{Tool: tool, Problems: p} }
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if len(args) > maxArgsBytes {
		return nil, fail(problems{{Message: fmt.Sprintf("arguments are %d bytes (at most %d)", len(args), maxArgsBytes)}})
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, fail(problems{{Message: "arguments are not valid JSON: " + err.Error()}})
	}
	if !t.Custom() {
		listForms(t.kind, inst)
	}
	if err := c.compiled[tool].Validate(inst); err != nil {
		return nil, fail(c.schemaProblems(t, err))
	}
	if p := leastCounts(t.least, inst); len(p) > 0 {
		return nil, fail(p)
	}
	if t.Custom() {
		return args, nil
	}
	ck := &Checker{c: c, tool: tool}
	out := t.kind.Parse(ck, args)
	if len(ck.p) > 0 {
		return nil, fail(ck.p)
	}
	return out, nil
}

// listForms turns the older one-item forms of arguments into the lists
// the schemas show, so the schema checks both forms the same way and
// each catalog describes one: order_by's single key ({field, direction}),
// for every generated tool, and what the tool's own Rewrite turns.
func listForms(k *Kind, inst any) {
	args, ok := inst.(map[string]any)
	if !ok {
		return
	}
	if key, ok := args["order_by"].(map[string]any); ok {
		args["order_by"] = []any{key}
	}
	if k.Rewrite != nil {
		k.Rewrite(args)
	}
}

// leastCounts refuses an argument below the least value its declaration
// gives it (Schema.Least, collected in Tool.least).
func leastCounts(least map[string]int64, inst any) problems {
	var p problems
	if args, ok := inst.(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(least)) {
			n, ok := args[name].(json.Number)
			if !ok {
				continue
			}
			if i, err := n.Int64(); err == nil && i < least[name] {
				p.add("/"+name, "%s is at least %d", name, least[name])
			}
		}
	}
	return p
}

var printer = message.NewPrinter(language.English)

// schemaProblems turns a validator error tree into one problem per leaf,
// with the valid choices where the schema has them (enum values, property
// names).
func (c *Catalog) schemaProblems(t *Tool, err error) problems {
	var ve *jsonschema.ValidationError
	var out problems
	if !asValidation(err, &ve) {
		out.add("", "%v", err)
		return out
	}
	var root any
	_ = json.Unmarshal(t.InputSchema, &root)
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		path := Pointer(anySlice(e.InstanceLocation)...)
		switch k := e.ErrorKind.(type) {
		case *kind.AnyOf:
			// When only one alternative has the value's JSON type (one
			// sort key or a list of them), its own problems are the ones
			// to report.
			var fit []*jsonschema.ValidationError
			for _, cause := range e.Causes {
				if _, wrongType := cause.ErrorKind.(*kind.Type); !wrongType {
					fit = append(fit, cause)
				}
			}
			if len(fit) == 1 {
				walk(fit[0])
				return
			}
			out.add(path, "value has the wrong type for this argument")
			return
		case *kind.Enum:
			out.choose(path, stringsOf(k.Want), "%s is not a valid choice", show(k.Got))
			return
		case *kind.AdditionalProperties:
			out.choose(path, propertyNames(schemaAt(root, e.InstanceLocation)), "unknown argument %s", strings.Join(quoteAll(k.Properties), ", "))
			return
		case *kind.Required:
			out.add(path, "missing required argument %s", strings.Join(quoteAll(k.Missing), ", "))
			return
		}
		if len(e.Causes) == 0 {
			out.add(path, "%s", e.ErrorKind.LocalizedString(printer))
			return
		}
		for _, cause := range e.Causes {
			walk(cause)
		}
	}
	walk(ve)
	if len(out) == 0 {
		out.add("", "%s", ve.ErrorKind.LocalizedString(printer))
	}
	return out
}

func asValidation(err error, target **jsonschema.ValidationError) bool {
	ve, ok := err.(*jsonschema.ValidationError)
	if ok {
		*target = ve
	}
	return ok
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// show renders a JSON value from the validator for a message.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case json.Number:
		return x.String()
	case *big.Rat:
		return x.RatString()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func stringsOf(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if s, ok := v.(string); ok {
			out[i] = s
		} else {
			out[i] = show(v)
		}
	}
	return out
}

// schemaAt follows an instance location through properties, items and
// references to the root's $defs to the subschema that describes it (nil
// when the path leaves the schema).
func schemaAt(s any, loc []string) map[string]any {
	root, _ := s.(map[string]any)
	deref := func(m map[string]any) map[string]any {
		if r, ok := m["$ref"].(string); ok {
			defs, _ := root["$defs"].(map[string]any)
			m, _ = defs[strings.TrimPrefix(r, "#/$defs/")].(map[string]any)
		}
		return m
	}
	cur := root
	for _, seg := range loc {
		cur = deref(cur)
		if cur == nil {
			return nil
		}
		if props, ok := cur["properties"].(map[string]any); ok {
			if next, ok := props[seg].(map[string]any); ok {
				cur = next
				continue
			}
		}
		next, _ := cur["items"].(map[string]any)
		cur = next
	}
	if cur == nil {
		return nil
	}
	return deref(cur)
}

// propertyNames lists an object schema's properties, sorted.
func propertyNames(s map[string]any) []string {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
