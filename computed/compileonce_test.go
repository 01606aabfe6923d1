package computed_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// The runtime compiles computed fields once per model and hands the
// compiled form down, never compiling per call (docs/design.md, data
// flow). These tests count Compile runs (computed.Compiles) around the
// owners and the calls; they are not parallel, so no other test compiles
// meanwhile.

// compilesDuring returns how many entities f compiled.
func compilesDuring(f func()) int64 {
	before := computed.Compiles()
	f()
	return computed.Compiles() - before
}

func TestEngineCompilesOncePerModelAndPlannedCallsCompileNothing(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	validate := compilesDuring(func() {
		if err := config.Validate(m); err != nil {
			t.Fatal(err)
		}
	})
	ready := model.State{}
	opts := engine.Options{
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}},
		State: func(context.Context) (model.State, error) { return ready, nil },
	}
	if n := compilesDuring(func() {
		if _, err := engine.New(t.Context(), m, opts); err != nil {
			t.Fatal(err)
		}
	}); n != validate+int64(len(m.Entities)) {
		t.Errorf("engine.New compiled %d entities; want config.Validate's %d and the model's %d once", n, validate, len(m.Entities))
	}

	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	opts.Computed = cm
	var e *engine.Engine
	if n := compilesDuring(func() {
		if e, err = engine.New(t.Context(), m, opts); err != nil {
			t.Fatal(err)
		}
	}); n != validate {
		t.Errorf("engine.New given Options.Computed compiled %d entities; want only config.Validate's %d", n, validate)
	}

	// Calls, shortened and verbose, under a new ready set and a known one,
	// plan from the one compiled form.
	call := engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(`{"entity_type":"Scope","order_by":{"field":"line_count","direction":"DESC"},"fields":["name","line_count","is_large"]}`)}
	if n := compilesDuring(func() {
		for _, r := range []model.State{{}, {{Entity: "Scope", Field: "line_count"}: true}, {}} {
			ready = r
			for _, verbose := range []bool{false, true} {
				call.Verbose = verbose
				st, err := e.Plan(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				// Runtime line_count reads endLine; stored, it does not.
				if runtime := strings.Contains(st.Cypher, "`endLine`"); runtime == r.Ready("Scope", "line_count") {
					t.Errorf("ready %v, verbose %v: statement computes line_count at runtime: %v\n%s", r, verbose, runtime, st.Cypher)
				}
			}
		}
	}); n != 0 {
		t.Errorf("planning six calls compiled %d entities; want 0", n)
	}
}

func TestEngineRefusesFieldsCompiledFromAnotherModel(t *testing.T) {
	load := func() *computed.Model {
		m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
		if err != nil {
			t.Fatal(err)
		}
		cm, err := computed.CompileModel(m)
		if err != nil {
			t.Fatal(err)
		}
		return cm
	}
	a, b := load(), load()
	_, err := engine.New(t.Context(), a.Model(), engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}, Computed: b})
	if err == nil || !strings.Contains(err.Error(), "another model") {
		t.Errorf("engine.New with another model's compiled fields: %v; want an error naming the mismatch", err)
	}
}
