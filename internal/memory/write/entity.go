package write

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// keyArg is the argument that names the entity an update changes.
const keyArg = "entity_key"

// writableFields lists the fields an agent may set on e: every stored
// field but the key, the tenant field and what provenance sets.
func (w *Writer) writableFields(e *model.Entity) []*model.Field {
	var out []*model.Field
	for _, f := range e.Fields {
		if f.Name == e.UniqueField || w.m.Tenant != nil && f.Name == w.m.Tenant.Field || w.provenanceField(f.Name) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// immutable reports whether update must refuse f: declared immutable, or
// one of the fields the key is made from (changing it would change the
// key).
func immutable(e *model.Entity, f string) bool {
	return slices.Contains(e.Immutable, f) || e.Key != nil && slices.Contains(e.Key.From, f)
}

// entitySchema is the input schema of create_<entity> or update_<entity>.
func (w *Writer) entitySchema(e *model.Entity, create bool) *tools.Schema {
	in := tools.Object()
	if !create {
		in.Props = append(in.Props, tools.Prop{Name: keyArg, Schema: &tools.Schema{Type: "string"}})
		in.Require(keyArg)
	}
	for _, f := range w.writableFields(e) {
		// A field the graph schema describes is not described again.
		s := fieldSchema(f, !tools.InGraphSchema(w.m, e.Name, f.Name))
		if !create && immutable(e, f.Name) {
			// Listed so that naming it gets the handler's explanation
			// rather than an unknown-argument error.
			s = &tools.Schema{Description: "immutable"}
		}
		in.Props = append(in.Props, tools.Prop{Name: f.Name, Schema: s})
	}
	if create {
		in.Require(e.Required...)
	}
	return w.withProvenance(in)
}

// describeEntity writes the description of an entity's write tool. The
// fields are the schema's properties; the graph schema describes them, and
// a field it does not describe is described in its property. An update's
// schema marks the fields it keeps "immutable", so its description does
// not name them again.
func (w *Writer) describeEntity(e *model.Entity, create bool) string {
	var b strings.Builder
	if create {
		var fixed []string
		for _, f := range w.writableFields(e) {
			if immutable(e, f.Name) {
				fixed = append(fixed, f.Name)
			}
		}
		fmt.Fprintf(&b, "Create %s or update the one with its key (%s)", article(e.Name), strings.Join(keyFrom(w.m, e), " + "))
		if len(fixed) > 0 {
			fmt.Fprintf(&b, ", %s kept", strings.Join(fixed, ", "))
		}
	} else {
		fmt.Fprintf(&b, "Update the fields given of the %s with entity_key", e.Name)
	}
	// What every write returns and records is said once, in the graph
	// schema.
	b.WriteString(".")
	return b.String()
}

// article puts a or an before a name: a Person, an Entity.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// keyFrom names the key's inputs as an agent sees them (the tenant field
// is the user).
func keyFrom(m *model.Model, e *model.Entity) []string {
	var out []string
	for _, f := range e.Key.From {
		if m.Tenant != nil && f == m.Tenant.Field {
			out = append(out, "the user")
			continue
		}
		out = append(out, f)
	}
	return out
}

// entityHandler runs create_<entity> (create) or update_<entity>.
func (w *Writer) entityHandler(e *model.Entity, create bool) func(context.Context, json.RawMessage) (any, error) {
	tool := UpdateToolName(e.Name)
	if create {
		tool = CreateToolName(e.Name)
	}
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		tn, err := w.tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		var args map[string]json.RawMessage
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, tools.Fail(tool, "", nil, "the arguments are not a JSON object: %v", err)
		}
		var prov provenanceArgs
		if err := json.Unmarshal(raw, &prov); err != nil {
			return nil, tools.Fail(tool, "", nil, "source must be a string and confidence a number: %v", err)
		}
		if err := w.checkProvenance(tool, prov); err != nil {
			return nil, err
		}
		values := map[string]any{}
		var names []string
		for _, f := range w.writableFields(e) {
			rv, ok := args[f.Name]
			if !ok {
				continue
			}
			if !create && immutable(e, f.Name) {
				return nil, tools.Fail(tool, "/"+f.Name, nil, "%s of a %s is immutable: it was set when the %s was created and cannot change (create a new %s instead)", f.Name, e.Name, e.Name, e.Name)
			}
			v, err := storedValue(f, rv)
			if err != nil {
				return nil, tools.Fail(tool, "/"+f.Name, nil, "%v", err)
			}
			values[f.Name] = v
			names = append(names, f.Name)
		}
		var key string
		if create {
			for _, r := range e.Required {
				if values[r] == nil {
					return nil, tools.Fail(tool, "/"+r, nil, "%s is required to create a %s", r, e.Name)
				}
			}
			parts := make([]any, len(e.Key.From))
			for i, f := range e.Key.From {
				if w.m.Tenant != nil && f == w.m.Tenant.Field {
					parts[i] = tn
					continue
				}
				if values[f] == nil {
					return nil, tools.Fail(tool, "/"+f, nil, "%s is needed to derive the %s's key (from %s)", f, e.Name, strings.Join(keyFrom(w.m, e), ", "))
				}
				parts[i] = values[f]
			}
			if key, err = Key(e.Key.Prefix, parts); err != nil {
				return nil, tools.Fail(tool, "", nil, "%v", err)
			}
		} else {
			if err := json.Unmarshal(args[keyArg], &key); err != nil || key == "" {
				return nil, tools.Fail(tool, "/"+keyArg, nil, "entity_key must be the key of an existing %s", e.Name)
			}
		}
		embeddings, unembedded, err := w.embed(ctx, e, values)
		if err != nil {
			return nil, err
		}
		sort.Strings(names)
		return w.writeEntity(ctx, tool, e, create, entityWrite{key: key, tenant: tn, values: values, names: names, prov: prov, embeddings: embeddings, unembedded: unembedded})
	}
}

// entityWrite is one validated entity write.
type entityWrite struct {
	key, tenant string
	values      map[string]any
	// names are the written fields, sorted, for the message.
	names      []string
	prov       provenanceArgs
	embeddings map[string]any
	// unembedded are vector-indexed fields written without an embedding
	// (no embedder).
	unembedded []string
}

// embed embeds the written fields that vector indexes cover.
func (w *Writer) embed(ctx context.Context, e *model.Entity, values map[string]any) (map[string]any, []string, error) {
	out := map[string]any{}
	var missing []string
	for _, vi := range e.VectorIndexes {
		text, ok := values[vi.Field].(string)
		if !ok || text == "" {
			continue
		}
		if w.env.Embedder == nil {
			missing = append(missing, vi.Field)
			continue
		}
		vec, err := w.env.Embedder.Embed(ctx, text, vi)
		if err != nil {
			return nil, nil, fmt.Errorf("write: embedding %s.%s for index %s: %w", e.Name, vi.Field, vi.Name, err)
		}
		if vi.Dimensions > 0 && len(vec) != vi.Dimensions {
			return nil, nil, fmt.Errorf("write: the embedder returned %d dimensions; index %s has %d", len(vec), vi.Name, vi.Dimensions)
		}
		// The text's hash beside the vector tells `ragforge-plan embed`
		// this vector is current.
		out[vi.VectorProperty()] = vec
		out[vi.HashProperty()] = embedder.TextHash(vi, text)
	}
	return out, missing, nil
}

// writeEntity runs one entity write and the recomputation of its stored
// computed fields in one write transaction.
func (w *Writer) writeEntity(ctx context.Context, tool string, e *model.Entity, create bool, wr entityWrite) (any, error) {
	if w.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	label, err := ident.Quote(e.Name)
	if err != nil {
		return nil, err
	}
	keyProp, err := ident.Quote(e.UniqueField)
	if err != nil {
		return nil, err
	}
	tenantProp, err := ident.Quote(w.m.Tenant.Field)
	if err != nil {
		return nil, err
	}
	now := w.env.Now()
	set, created := w.provenanceSet(wr.prov, e.Field, now)
	mutable := map[string]any{}
	for k, v := range wr.values {
		if !immutable(e, k) {
			mutable[k] = v
		}
	}
	for k, v := range wr.embeddings {
		set[k] = v
	}
	params := map[string]any{"key": wr.key, tenant.Param: wr.tenant, "set": set}
	var q string
	if create {
		// The key and tenant identify the node; a retry finds it and
		// changes only mutable fields.
		q = "OPTIONAL MATCH (old:" + label + " {" + keyProp + ": $key, " + tenantProp + ": $tenant})\n" +
			"WITH count(old) > 0 AS existed, head(collect(old " + projection(e.Fields) + ")) AS before\n" +
			"MERGE (n:" + label + " {" + keyProp + ": $key, " + tenantProp + ": $tenant})\n" +
			"ON CREATE SET n += $all, n += $created\n" +
			"ON MATCH SET n += $mutable\n" +
			"SET n += $set\n" +
			"RETURN existed, before"
		params["all"], params["mutable"], params["created"] = wr.values, mutable, created
	} else {
		q = "MATCH (n:" + label + " {" + keyProp + ": $key, " + tenantProp + ": $tenant})\n" +
			"WITH n, true AS existed, n " + projection(e.Fields) + " AS before\n" +
			"SET n += $mutable, n += $set\n" +
			"RETURN existed, before"
		params["mutable"] = mutable
	}
	out, err := neo4jtx.Write(ctx, w.env.Driver, w.env.Database, w.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, q, params)
		if err != nil {
			return nil, err
		}
		recs, err := res.Collect(ctx)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, tools.Fail(tool, "/"+keyArg, nil, "no %s has entity_key %q in this user's memory (create it with %s, or find its key with a search)", e.Name, wr.key, CreateToolName(e.Name))
		}
		existed, _ := recs[0].Get("existed")
		before, _ := recs[0].Get("before")
		if err := recompute(ctx, tx, w.m, w.env.Computed, e, wr.key); err != nil {
			return nil, err
		}
		if err := w.recordChange(ctx, tx, e, create && existed != true, wr, before, mutable, now); err != nil {
			return nil, err
		}
		return entityMessage(e, create, wr, existed == true, before), nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// projection is the map projection of an entity's stored fields or a
// relationship's declared properties, their names escaped: the values
// before a write, which a create that finds its node compares immutable
// fields with and a recorded Change keeps as the old values.
func projection(fields []*model.Field) string {
	var items []string
	for _, f := range fields {
		if q, err := ident.Quote(f.Name); err == nil {
			items = append(items, "."+q)
		}
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// recordChange records the write as a Change of a tracked entity, in the
// write's transaction (package change): what the write set — every value
// when it made the node, else the mutable ones — against before. A write
// that changed nothing records nothing.
func (w *Writer) recordChange(ctx context.Context, tx neo4j.ManagedTransaction, e *model.Entity, made bool, wr entityWrite, before any, mutable map[string]any, now time.Time) error {
	if w.changes == nil || !w.m.ChangeTracking.Tracks(e.Name) {
		return nil
	}
	set := mutable
	if made {
		set = wr.values
	}
	old, _ := before.(map[string]any)
	props := w.changes.Properties(change.Write{Entity: e, Key: wr.key, Create: made, Old: old, New: set,
		Source: wr.prov.Source, Confidence: wr.prov.Confidence})
	if props == nil {
		return nil
	}
	return w.changes.Record(ctx, tx, e, wr.key, wr.tenant, now, props)
}

// recompute stores again the written node's materialized computed fields,
// in the write's transaction: the states are read there too, so a field
// that is being stored when the write commits is kept right. cm is the
// model's computed fields compiled once (tools.Env.Computed), not per write.
func recompute(ctx context.Context, tx neo4j.ManagedTransaction, m *model.Model, cm *computed.Model, e *model.Entity, key string) error {
	if len(e.Computed) == 0 {
		return nil
	}
	states, err := materialize.ReadStatesTx(ctx, tx)
	if err != nil {
		return err
	}
	q, err := materialize.Recompute(cm, e.Name, materialize.Materialized(m, states, e.Name))
	if err != nil || q == "" {
		return err
	}
	_, err = tx.Run(ctx, q, map[string]any{materialize.RecomputeParam: key})
	return err
}

// entityMessage says what an entity write did.
func entityMessage(e *model.Entity, create bool, wr entityWrite, existed bool, before any) Result {
	r := Result{EntityKey: wr.key, Created: create && !existed}
	var b strings.Builder
	switch {
	case r.Created:
		fmt.Fprintf(&b, "Created %s %s", e.Name, wr.key)
		if len(wr.names) > 0 {
			fmt.Fprintf(&b, " with %s", strings.Join(wr.names, ", "))
		}
		b.WriteString(".")
	default:
		var changed, kept []string
		old, _ := before.(map[string]any)
		for _, n := range wr.names {
			if immutable(e, n) {
				if fmt.Sprint(old[n]) != fmt.Sprint(wr.values[n]) {
					kept = append(kept, n)
				}
				continue
			}
			changed = append(changed, n)
		}
		verb := "Updated"
		if create {
			verb = "Found existing"
		}
		fmt.Fprintf(&b, "%s %s %s", verb, e.Name, wr.key)
		if len(changed) > 0 {
			fmt.Fprintf(&b, "; set %s", strings.Join(changed, ", "))
		}
		b.WriteString(".")
		if len(kept) > 0 {
			fmt.Fprintf(&b, " Kept the stored %s (immutable).", strings.Join(kept, ", "))
		}
	}
	if len(wr.unembedded) > 0 {
		fmt.Fprintf(&b, " %s was not embedded (no embedder is configured), so vector search will not find it yet.", strings.Join(wr.unembedded, ", "))
	}
	r.Message = b.String()
	return r
}
