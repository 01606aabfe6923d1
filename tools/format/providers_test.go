package format_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// servedTools is every tool every example config serves, all tools on,
// with an embedder: the schemas the provider checks read.
func servedTools(t *testing.T) map[string][]*tools.Tool {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/configs/valid/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*tools.Tool{}
	for _, p := range paths {
		e := served(t, p, true, tools.Options{Aggregations: true, RawCypher: load(t, p).Tenant == nil})
		out[filepath.Base(p)] = e.Tools().Tools
	}
	return out
}

// TestMCPSchemasResolveWithTheGoSDKsValidator: the MCP Go SDK validates
// tool arguments with github.com/google/jsonschema-go (for tools whose
// input it types); every input schema, the condition grammar's $defs and
// $ref included, resolves there and judges calls as Parse's validator
// does.
func TestMCPSchemasResolveWithTheGoSDKsValidator(t *testing.T) {
	for config, ts := range servedTools(t) {
		for _, tool := range ts {
			var s jsonschema.Schema
			if err := json.Unmarshal(format.ToMCP(tool).InputSchema, &s); err != nil {
				t.Fatalf("%s %s: %v", config, tool.Name, err)
			}
			if _, err := s.Resolve(nil); err != nil {
				t.Errorf("%s %s: the schema does not resolve: %v", config, tool.Name, err)
			}
		}
	}
	c := examples(t, tools.Options{})[0].cat // code-rag
	var s jsonschema.Schema
	if err := json.Unmarshal(c.Tool(planner.QueryEntities).InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for args, ok := range map[string]bool{
		`{"entity_type":"File","conditions":[{"any_of":[{"via":"CONTAINS","entity":"Scope","conditions":[{"not":[{"field":"name","operator":"=","value":"x"}]}]}]}]}`: true,
		`{"entity_type":"File","conditions":[{"any_of":[{"via":"CONTAINS","conditions":[{"nope":1}]}]}]}`:                                                             false,
		`{"entity_type":"Files"}`: false,
	} {
		var inst any
		if err := json.Unmarshal([]byte(args), &inst); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(inst); (err == nil) != ok {
			t.Errorf("%s: jsonschema-go says %v, want valid %v", args, err, ok)
		}
		if _, err := c.Parse(planner.QueryEntities, json.RawMessage(args)); ok && err != nil {
			t.Errorf("%s: Parse refuses what jsonschema-go accepts: %v", args, err)
		}
	}
	// A value's schema is open (its type is the field's, which the
	// description gives): Parse refuses one that does not fit.
	if _, err := c.Parse(planner.QueryEntities, json.RawMessage(`{"entity_type":"File","conditions":[{"field":"name","operator":"IN","value":{"a":1}}]}`)); err == nil || !strings.Contains(err.Error(), "IN needs a non-empty list") {
		t.Errorf("an object value: %v, want IN's list refused", err)
	}
}

// TestOpenAIStrictReadsDefinitions: strict mode's rules (every property
// required, every object closed) hold inside $defs too, and a strict
// schema gives each enum its type, as strict mode's documentation shows.
func TestOpenAIStrictReadsDefinitions(t *testing.T) {
	closed := `{"type":"object","properties":{"c":{"$ref":"#/$defs/c"}},"required":["c"],"additionalProperties":false,"$defs":{"c":{"type":"object","properties":{"a":{"type":"string"}},%s"additionalProperties":false}}}`
	strict := format.ToOpenAI(&tools.Tool{Name: "t", InputSchema: json.RawMessage(strings.Replace(closed, "%s", `"required":["a"],`, 1))}).Function
	loose := format.ToOpenAI(&tools.Tool{Name: "t", InputSchema: json.RawMessage(strings.Replace(closed, "%s", "", 1))}).Function
	if !strict.Strict || loose.Strict {
		t.Errorf("strict %v with every property of the definition required, %v without", strict.Strict, loose.Strict)
	}
	enum := format.ToOpenAI(&tools.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"entity_type":{"enum":["Scope","File"]}},"required":["entity_type"],"additionalProperties":false}`)}).Function
	if !enum.Strict || !strings.Contains(string(enum.Parameters), `"entity_type":{"type":"string","enum":["Scope","File"]}`) {
		t.Errorf("strict %v: %s", enum.Strict, enum.Parameters)
	}
}

// TestGeminiGetsTheGrammarWithoutReferences: Gemini's function
// declarations take no $ref, so the grammar is written out (as Google's
// Gen AI SDK does: where it would recur, a list takes any item), and a
// nested condition stays possible.
func TestGeminiGetsTheGrammarWithoutReferences(t *testing.T) {
	for config, ts := range servedTools(t) {
		for _, tool := range ts {
			fn, err := format.ToGemini(tool)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(fn.Parameters), "$ref") || strings.Contains(string(fn.Parameters), "$defs") {
				t.Errorf("%s %s: Gemini parameters refer: %s", config, tool.Name, fn.Parameters)
			}
		}
	}
	fn, err := format.ToGemini(examples(t, tools.Options{})[0].cat.Tool(planner.QueryEntities))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"conditions":{"type":"ARRAY","items":{"type":"OBJECT","properties":{"field":{"type":"STRING"}`, `"any_of":{}`, `"via":{"type":"STRING"}`} {
		if !strings.Contains(string(fn.Parameters), want) {
			t.Errorf("Gemini query_entities lacks %s: %s", want, fn.Parameters)
		}
	}
}
