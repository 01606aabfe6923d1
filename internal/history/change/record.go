package change

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// The kinds of change.
const (
	Created = "created"
	Updated = "updated"
	Deleted = "deleted"
)

// Kinds lists the kinds of change, as tools offer them.
var Kinds = []string{Created, Updated, Deleted}

// Tracking is a model's change tracking with every name resolved and
// escaped, ready to write statements with.
type Tracking struct {
	model.ChangeTracking
	// TenantField is the tenant property ("" without a tenant).
	TenantField string
	// Q holds the escaped identifiers: the Change label, the relationship
	// type and each property by its model name.
	Q Quoted
}

// Quoted are a Tracking's identifiers escaped for Cypher.
type Quoted struct {
	Label, Rel, Tenant string
	Fields             model.ChangeFields
}

// New returns the tracking of m, or nil when m tracks no changes. The
// names come from the validated model; an error means one cannot be
// escaped, which validation prevents.
func New(m *model.Model) (*Tracking, error) {
	if m == nil || m.ChangeTracking == nil {
		return nil, nil
	}
	t := &Tracking{ChangeTracking: m.ChangeTracking.Resolved()}
	if m.Tenant != nil {
		t.TenantField = m.Tenant.Field
	}
	var qr ident.Quoter
	q := qr.Quote
	t.Q.Label, t.Q.Rel = q(t.Label), q(t.Relationship)
	if t.TenantField != "" {
		t.Q.Tenant = q(t.TenantField)
	}
	byRole := map[string]string{}
	for _, r := range t.Fields.Roles() {
		byRole[r[0]] = q(r[1])
	}
	t.Q.Fields = model.ChangeFieldsOf(byRole)
	if qr.Err != nil {
		return nil, fmt.Errorf("change: %w", qr.Err)
	}
	return t, nil
}

// Write is one write of a tracked entity, as the write tools know it: of
// the node's own fields, or of one of its relationships.
type Write struct {
	// Entity is the written node's entity; Key its unique field's value.
	Entity *model.Entity
	Key    string
	// Relationship is the relationship written, seen from the node; nil
	// for a write of the node's own fields.
	Relationship *Relationship
	// Create says the write made the node, or the relationship (kind
	// created).
	Create bool
	// Old holds the stored values before the write (nil when it made the
	// node or relationship); New the values the write set: the node's
	// fields, or the relationship's properties.
	Old, New map[string]any
	// Source and Confidence are the write's provenance (nil when not
	// given).
	Source     *string
	Confidence *float64
	Time       time.Time
}

// Relationship is a written relationship as one of its ends sees it.
type Relationship struct {
	Type string
	// Direction is the stored direction from the node: outgoing when it is
	// the source, incoming when the target, both for a type declared both
	// ways.
	Direction model.Direction
	// OtherEntity and OtherKey name the node at the other end.
	OtherEntity, OtherKey string
	// Properties are the relationship's declared properties (their types
	// say which values are text, and so diffed).
	Properties []*model.Field
}

// field returns the declared field or property name of what w wrote, or
// nil.
func (w Write) field(name string) *model.Field {
	if w.Relationship == nil {
		return w.Entity.Field(name)
	}
	for _, p := range w.Relationship.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Properties returns the Change's properties for w (its time and tenant
// are set by the statement), or nil when the write made nothing and
// changed no value: a retried write records nothing.
func (t *Tracking) Properties(w Write) map[string]any {
	var changed []string
	for name, v := range w.New {
		if w.Create || jsonOf(w.Old[name]) != jsonOf(v) {
			changed = append(changed, name)
		}
	}
	if len(changed) == 0 && !w.Create {
		return nil
	}
	sort.Strings(changed)
	old, new := map[string]any{}, map[string]any{}
	var diffs []string
	added, removed := 0, 0
	for _, name := range changed {
		if !w.Create {
			old[name] = t.bounded(neo4jvalue.Value(w.Old[name]))
		}
		new[name] = t.bounded(neo4jvalue.Value(w.New[name]))
		if f := w.field(name); f != nil && f.Type.Kind() == model.String {
			before, _ := w.Old[name].(string)
			after, _ := w.New[name].(string)
			d, a, r := Unified(name, before, after)
			if d != "" {
				diffs = append(diffs, d)
				added, removed = added+a, removed+r
			}
		}
	}
	f := t.Fields
	kind := Updated
	if w.Create {
		kind = Created
	}
	p := map[string]any{
		f.EntityType: w.Entity.Name, f.EntityKey: w.Key, f.Kind: kind,
		f.ChangedFields: changed, f.NewValues: jsonOf(new),
		f.LinesAdded: int64(added), f.LinesRemoved: int64(removed),
	}
	if r := w.Relationship; r != nil {
		p[f.RelationshipType], p[f.Direction] = r.Type, string(r.Direction)
		p[f.OtherEntityType], p[f.OtherEntityKey] = r.OtherEntity, r.OtherKey
	}
	if !w.Create {
		p[f.OldValues] = jsonOf(old)
	}
	if len(diffs) > 0 {
		p[f.Diff] = Cut(strings.Join(diffs, ""), t.MaxDiffBytes)
	}
	if w.Source != nil {
		p[f.Source] = *w.Source
	}
	if w.Confidence != nil {
		p[f.Confidence] = *w.Confidence
	}
	return p
}

// bounded cuts a long string value (a text field) to the diff cap.
func (t *Tracking) bounded(v any) any {
	if s, ok := v.(string); ok {
		return Cut(s, t.MaxDiffBytes)
	}
	return v
}

// jsonOf is v's JSON text, the form values are compared and stored in
// (a value that cannot be encoded compares as its Go form).
func jsonOf(v any) string {
	b, err := json.Marshal(neo4jvalue.Value(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Record creates the Change with props beside the node of entity e with
// key (and the tenant) in tx, the write's transaction; a new random UUID
// keys it and at is its time. It fails when the node is not there.
func (t *Tracking) Record(ctx context.Context, tx neo4j.ManagedTransaction, e *model.Entity, key, tenantID string, at time.Time, props map[string]any) error {
	label, err := ident.Quote(e.Name)
	if err != nil {
		return err
	}
	keyProp, err := ident.Quote(e.UniqueField)
	if err != nil {
		return err
	}
	match := "MATCH (n:" + label + " {" + keyProp + ": $key"
	create := "CREATE (n)-[:" + t.Q.Rel + "]->(c:" + t.Q.Label + " {" + t.Q.Fields.Key + ": randomUUID()"
	if t.TenantField != "" {
		match += ", " + t.Q.Tenant + ": $tenant"
		create += ", " + t.Q.Tenant + ": $tenant"
	}
	q := match + "})\n" + create + "})\nSET c += $props, c." + t.Q.Fields.Timestamp + " = $at\nRETURN 1 AS recorded"
	res, err := tx.Run(ctx, q, map[string]any{"key": key, tenant.Param: tenantID, "props": props, "at": at.UTC()})
	if err != nil {
		return err
	}
	if _, err := res.Single(ctx); err != nil {
		return fmt.Errorf("change: recording the change of %s %s: %w", e.Name, key, err)
	}
	return nil
}
