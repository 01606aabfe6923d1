package write

import (
	"context"
	"strings"
	"time"

	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// The relationship write tools' names; entity tools are named from the
// entity ([CreateToolName], [UpdateToolName]).
const (
	CreateRelationship = "create_relationship"
	UpdateRelationship = "update_relationship"
)

// Category groups the write tools in a catalog.
const Category tools.Category = "write"

// Writer runs the write tools of one model. It is safe for concurrent use.
type Writer struct {
	m   *model.Model
	env tools.Env
	// changes records the writes of tracked entities (nil when the model
	// tracks none).
	changes *change.Tracking
}

// The write tools are the tools of writable entities and relationship
// types, after the tree tools.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "write", Rank: 20, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		return New(m, env).Tools(), nil
	}})
}

// New returns the writer of m's writable entities and relationship types.
// env.Embedder, when set, embeds written fields that a vector index
// covers, so a node written by an agent is found by vector search at
// once; env.Computed is the model's computed fields, from which a write
// recomputes its node's stored fields (writes to an entity with computed
// fields need it).
func New(m *model.Model, env tools.Env) *Writer {
	// The model is validated, so its names escape; a name that did not
	// would leave changes unrecorded rather than refuse every write.
	changes, _ := change.New(m)
	return &Writer{m: m, env: env.WithDefaults(), changes: changes}
}

// CreateToolName is the create tool of an entity: create_ and the entity's
// name in snake_case (CodeFile → create_code_file).
func CreateToolName(entity string) string { return "create_" + model.SnakeCase(entity) }

// UpdateToolName is the update tool of an entity.
func UpdateToolName(entity string) string { return "update_" + model.SnakeCase(entity) }

// Tools returns the write tools for the catalog: per writable entity its
// create and update tools, then the relationship tools when a relationship
// type is writable. The catalog checks arguments against each schema;
// the handlers check the rest.
func (w *Writer) Tools() []tools.CustomTool {
	var out []tools.CustomTool
	for _, e := range w.m.Entities {
		if e.Writable.Create {
			out = append(out, tools.CustomTool{
				Name: CreateToolName(e.Name), Category: Category,
				Description: w.describeEntity(e, true), Input: w.entitySchema(e, true),
				Handler:  w.entityHandler(e, true),
				Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
			})
		}
		if e.Writable.Update {
			out = append(out, tools.CustomTool{
				Name: UpdateToolName(e.Name), Category: Category,
				Description: w.describeEntity(e, false), Input: w.entitySchema(e, false),
				Handler:  w.entityHandler(e, false),
				Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
			})
		}
	}
	if rels := writableRelationships(w.m); len(rels) > 0 {
		for _, create := range []bool{true, false} {
			name := UpdateRelationship
			if create {
				name = CreateRelationship
			}
			out = append(out, tools.CustomTool{
				Name: name, Category: Category,
				Description: w.describeRelationships(rels, create), Input: w.relationshipSchema(rels),
				Handler:  w.relationshipHandler(rels, create),
				Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
			})
		}
	}
	return out
}

// Result is what every write tool returns.
type Result struct {
	// EntityKey is the written entity's key (entity tools only).
	EntityKey string `json:"entity_key,omitempty"`
	// Created is true when the write made a new node or relationship.
	Created bool `json:"created"`
	// Message says what happened in a sentence an agent can relay: what
	// was set, what was kept or dropped and why.
	Message string `json:"message"`
}

// tenantOf returns the tenant a call writes under: the one the engine
// resolved and bound to ctx. Writable entities need a declared tenant, so
// a call without one is tenant.ErrUnbound, never a write to every tenant.
func (w *Writer) tenantOf(ctx context.Context) (string, error) {
	return tenant.Required(ctx, true)
}

// provenanceArgs are the arguments every write tool takes for provenance.
type provenanceArgs struct {
	Source     *string  `json:"source"`
	Confidence *float64 `json:"confidence"`
}

// checkProvenance refuses a confidence outside 0..1 and, when the config
// requires provenance, a write without a source or a confidence, each at
// its argument's path.
func (w *Writer) checkProvenance(tool string, a provenanceArgs) error {
	if p := w.m.Provenance; p != nil && p.Required {
		if a.Source == nil || strings.TrimSpace(*a.Source) == "" {
			return tools.Fail(tool, "/source", nil, "source is required: say where you learned this (the conversation, document or message), so the memory records where it came from")
		}
		if a.Confidence == nil {
			return tools.Fail(tool, "/confidence", nil, "confidence is required: give how sure you are, from 0 (a guess) to 1 (stated plainly)")
		}
	}
	if c := a.Confidence; c != nil && (*c < 0 || *c > 1) {
		return tools.Fail(tool, "/confidence", nil, "confidence is %v; give 0 to 1", *c)
	}
	return nil
}

// withProvenance adds the provenance arguments the config records to a
// write tool's input schema, required when the config requires them (the
// graph schema says what they are, once for every write tool).
func (w *Writer) withProvenance(in *tools.Schema) *tools.Schema {
	p := w.m.Provenance
	if p == nil {
		return in
	}
	if p.SourceField != "" {
		in.Props = append(in.Props, tools.Prop{Name: "source", Schema: &tools.Schema{Type: "string"}})
	}
	if p.ConfidenceField != "" {
		// Its bounds are checked by the handler (checkProvenance): the
		// graph schema says them once for every write tool.
		in.Props = append(in.Props, tools.Prop{Name: "confidence", Schema: &tools.Schema{Type: "number"}})
	}
	if p.Required {
		in.Require("source", "confidence")
	}
	return in
}

// provenanceSet returns the properties a write records for provenance on
// a node or relationship whose declared fields are fields (nil for a
// relationship type that declares none): source, confidence and the
// update time; created holds the creation time, set only when the write
// creates.
func (w *Writer) provenanceSet(args provenanceArgs, fields func(string) *model.Field, now time.Time) (set, created map[string]any) {
	set, created = map[string]any{}, map[string]any{}
	p := w.m.Provenance
	if p == nil {
		return set, created
	}
	if p.SourceField != "" && args.Source != nil {
		set[p.SourceField] = *args.Source
	}
	if p.ConfidenceField != "" && args.Confidence != nil {
		set[p.ConfidenceField] = *args.Confidence
	}
	if p.UpdatedAt != "" {
		set[p.UpdatedAt] = storedTime(fields(p.UpdatedAt), now)
	}
	if p.CreatedAt != "" {
		created[p.CreatedAt] = storedTime(fields(p.CreatedAt), now)
	}
	return set, created
}

// provenanceField reports whether name is a property provenance sets, so
// the agent does not set it as a plain field.
func (w *Writer) provenanceField(name string) bool {
	p := w.m.Provenance
	return p != nil && name != "" && (name == p.SourceField || name == p.ConfidenceField || name == p.UpdatedAt || name == p.CreatedAt)
}
