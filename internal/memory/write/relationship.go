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

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// relDecl is one writable (source, type, target) triple. Both marks a
// type declared in both directions: either endpoint may come first, and
// a relationship in either direction is the same one.
type relDecl struct {
	From, Type, To string
	Both           bool
	Props          []*model.Field
}

// prop returns the declared property name, or nil.
func (d *relDecl) prop(name string) *model.Field {
	for _, p := range d.Props {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// writableRelationships lists the writable triples of m, seen from the
// source: a type declared incoming on its target and outgoing on its
// source is one triple, with the properties of both declarations.
func writableRelationships(m *model.Model) []*relDecl {
	var out []*relDecl
	add := func(from, typ, to string, both bool, props []*model.Field) {
		for _, d := range out {
			if d.From == from && d.Type == typ && d.To == to || both && d.Both && d.Type == typ && d.From == to && d.To == from {
				for _, p := range props {
					if d.prop(p.Name) == nil {
						d.Props = append(d.Props, p)
					}
				}
				return
			}
		}
		out = append(out, &relDecl{From: from, Type: typ, To: to, Both: both, Props: slices.Clone(props)})
	}
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if !r.Writable {
				continue
			}
			for _, t := range r.Targets {
				switch r.Direction {
				case model.Incoming:
					add(t, r.Type, e.Name, false, r.Properties)
				case model.Both:
					add(e.Name, r.Type, t, true, r.Properties)
				default:
					add(e.Name, r.Type, t, false, r.Properties)
				}
			}
		}
	}
	return out
}

// relationshipTypes lists the writable types, sorted.
func relationshipTypes(rels []*relDecl) []string {
	var out []string
	for _, d := range rels {
		if !slices.Contains(out, d.Type) {
			out = append(out, d.Type)
		}
	}
	sort.Strings(out)
	return out
}

// relationshipSchema is the input schema of both relationship tools;
// properties stay open because unknown ones are dropped and listed, not
// refused.
func (w *Writer) relationshipSchema(rels []*relDecl) *tools.Schema {
	return w.withProvenance(tools.Object(
		tools.Prop{Name: "from_entity_key", Schema: &tools.Schema{Type: "string"}},
		tools.Prop{Name: "to_entity_key", Schema: &tools.Schema{Type: "string"}},
		tools.Prop{Name: "relationship_type", Schema: &tools.Schema{Type: "string", Enum: relationshipTypes(rels)}},
		tools.Prop{Name: "properties", Schema: &tools.Schema{Type: "object", Description: "Unknown ones are dropped", Open: true}},
	).Require("from_entity_key", "to_entity_key", "relationship_type"))
}

// describeRelationships writes the description of a relationship tool.
// The graph schema lists the types with their endpoints and properties
// when it describes every endpoint; otherwise the description does.
func (w *Writer) describeRelationships(rels []*relDecl, create bool) string {
	var b strings.Builder
	if create {
		b.WriteString("Connect two nodes given by entity_key (from: the stored arrow's source) with a relationship, or set the properties given on the one with the same ends and type.")
	} else {
		b.WriteString("Set the properties given on the relationship between two nodes (as for " + CreateRelationship + "), making it if missing.")
	}
	described := true
	for _, d := range rels {
		described = described && tools.InGraphSchema(w.m, d.From, "") && tools.InGraphSchema(w.m, d.To, "")
	}
	if described {
		b.WriteString(" Types, ends, properties: see the graph schema.")
		return b.String()
	}
	b.WriteString("\n\nTypes (source -> target: properties):\n")
	for _, d := range rels {
		arrow := "->"
		if d.Both {
			arrow = "<->"
		}
		fmt.Fprintf(&b, "- %s: %s %s %s", d.Type, d.From, arrow, d.To)
		var ps []string
		for _, p := range d.Props {
			if w.provenanceField(p.Name) {
				continue
			}
			s := p.Name + " (" + string(p.Type)
			if len(p.Values) > 0 {
				s += ": " + strings.Join(p.Values, ", ")
			}
			if p.Min != nil || p.Max != nil {
				s += fmt.Sprintf(" %s..%s", bound(p.Min), bound(p.Max))
			}
			ps = append(ps, s+")")
		}
		if len(ps) > 0 {
			b.WriteString(": " + strings.Join(ps, ", "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func bound(x *float64) string {
	if x == nil {
		return ""
	}
	return fmt.Sprint(*x)
}

// relationshipArgs are the arguments of both relationship tools.
type relationshipArgs struct {
	From       string                     `json:"from_entity_key"`
	To         string                     `json:"to_entity_key"`
	Type       string                     `json:"relationship_type"`
	Properties map[string]json.RawMessage `json:"properties"`
	provenanceArgs
}

// relationshipHandler runs create_relationship (create) or
// update_relationship; both MERGE, so either is safe to retry.
func (w *Writer) relationshipHandler(rels []*relDecl, create bool) func(context.Context, json.RawMessage) (any, error) {
	tool := UpdateRelationship
	if create {
		tool = CreateRelationship
	}
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		tn, err := w.tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		var a relationshipArgs
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, tools.Fail(tool, "", nil, "bad arguments: %v", err)
		}
		if err := w.checkProvenance(tool, a.provenanceArgs); err != nil {
			return nil, err
		}
		var candidates []*relDecl
		for _, d := range rels {
			if d.Type == a.Type {
				candidates = append(candidates, d)
			}
		}
		if len(candidates) == 0 {
			return nil, tools.Fail(tool, "/relationship_type", relationshipTypes(rels), "%q is not a writable relationship type", a.Type)
		}
		if w.env.Driver == nil {
			return nil, neo4jtx.ErrNoDriver
		}
		return neo4jtx.Write(ctx, w.env.Driver, w.env.Database, w.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
			return w.writeRelationship(ctx, tx, tool, candidates, a, tn)
		})
	}
}

// writeRelationship finds both endpoints in the tenant, checks the triple
// against the declarations, and MERGEs the relationship.
func (w *Writer) writeRelationship(ctx context.Context, tx neo4j.ManagedTransaction, tool string, candidates []*relDecl, a relationshipArgs, tn string) (any, error) {
	fromLabels, err := w.labelsOf(ctx, tx, candidates, a.From, tn)
	if err != nil {
		return nil, err
	}
	if len(fromLabels) == 0 {
		return nil, tools.Fail(tool, "/from_entity_key", nil, "no node has entity_key %q in this user's memory (create it first, or find its key with a search)", a.From)
	}
	toLabels, err := w.labelsOf(ctx, tx, candidates, a.To, tn)
	if err != nil {
		return nil, err
	}
	if len(toLabels) == 0 {
		return nil, tools.Fail(tool, "/to_entity_key", nil, "no node has entity_key %q in this user's memory (create it first, or find its key with a search)", a.To)
	}
	d, from, to := match(candidates, fromLabels, toLabels)
	if d == nil {
		var pairs []string
		for _, c := range candidates {
			pairs = append(pairs, c.From+" -> "+c.To)
		}
		return nil, tools.Fail(tool, "/relationship_type", nil, "%s cannot join a %s to a %s (it joins %s)", a.Type, strings.Join(fromLabels, "/"), strings.Join(toLabels, "/"), strings.Join(pairs, ", "))
	}
	props := map[string]any{}
	var set, dropped []string
	for name, rv := range a.Properties {
		p := d.prop(name)
		if p == nil || w.provenanceField(name) {
			dropped = append(dropped, name)
			continue
		}
		v, err := storedValue(p, rv)
		if err != nil {
			return nil, tools.Fail(tool, "/properties/"+name, nil, "%v", err)
		}
		props[name] = v
		set = append(set, name)
	}
	sort.Strings(set)
	sort.Strings(dropped)
	now := w.env.Now()
	prov, created := w.provenanceSet(a.provenanceArgs, d.prop, now)
	q, err := w.mergeStatement(d, from, to)
	if err != nil {
		return nil, err
	}
	res, err := tx.Run(ctx, q, map[string]any{"from": a.From, "to": a.To, tenant.Param: tn, "props": props, "set": prov, "created": created})
	if err != nil {
		return nil, err
	}
	rec, err := res.Single(ctx)
	if err != nil {
		return nil, err
	}
	existed, _ := rec.Get("existed")
	before, _ := rec.Get("before")
	old, _ := before.(map[string]any)
	r := Result{Created: existed != true}
	if err := w.recordRelationshipChanges(ctx, tx, d, from, to, a, tn, relationshipWrite{made: r.Created, old: old, new: props, at: now}); err != nil {
		return nil, err
	}
	verb := "Updated"
	if r.Created {
		verb = "Created"
	}
	r.Message = fmt.Sprintf("%s %s from %s to %s", verb, d.Type, a.From, a.To)
	if len(set) > 0 {
		r.Message += "; set " + strings.Join(set, ", ")
	}
	r.Message += "."
	if len(dropped) > 0 {
		var known []string
		for _, p := range d.Props {
			if !w.provenanceField(p.Name) {
				known = append(known, p.Name)
			}
		}
		r.Message += fmt.Sprintf(" Dropped %s: not properties of %s %s -> %s (it has: %s).", strings.Join(dropped, ", "), d.Type, d.From, d.To, strings.Join(known, ", "))
	}
	return r, nil
}

// relationshipWrite is what one relationship write did: made the
// relationship or not, its declared properties before (nil when made) and
// the properties set.
type relationshipWrite struct {
	made     bool
	old, new map[string]any
	at       time.Time
}

// recordRelationshipChanges records the write as a Change of each tracked
// end (package change), in the write's transaction, each seeing the
// relationship from its side; a relationship from a node to itself is one
// Change. A write that made nothing and changed no property records
// nothing.
func (w *Writer) recordRelationshipChanges(ctx context.Context, tx neo4j.ManagedTransaction, d *relDecl, from, to string, a relationshipArgs, tn string, rw relationshipWrite) error {
	if w.changes == nil {
		return nil
	}
	fromDir, toDir := model.Outgoing, model.Incoming
	if d.Both {
		fromDir, toDir = model.Both, model.Both
	}
	ends := []struct {
		entity, key string
		rel         change.Relationship
	}{
		{from, a.From, change.Relationship{Type: d.Type, Direction: fromDir, OtherEntity: to, OtherKey: a.To, Properties: d.Props}},
		{to, a.To, change.Relationship{Type: d.Type, Direction: toDir, OtherEntity: from, OtherKey: a.From, Properties: d.Props}},
	}
	if from == to && a.From == a.To {
		ends = ends[:1]
	}
	for _, end := range ends {
		if !w.m.ChangeTracking.Tracks(end.entity) {
			continue
		}
		e := w.m.Entity(end.entity)
		props := w.changes.Properties(change.Write{Entity: e, Key: end.key, Relationship: &end.rel, Create: rw.made,
			Old: rw.old, New: rw.new, Source: a.Source, Confidence: a.Confidence})
		if props == nil {
			continue
		}
		if err := w.changes.Record(ctx, tx, e, end.key, tn, rw.at, props); err != nil {
			return err
		}
	}
	return nil
}

// match picks the declaration that joins a node with one of fromLabels to
// one with toLabels, and the labels it joins in the statement's order
// (reversed for a both-ways type declared the other way round).
func match(candidates []*relDecl, fromLabels, toLabels []string) (*relDecl, string, string) {
	for _, d := range candidates {
		if slices.Contains(fromLabels, d.From) && slices.Contains(toLabels, d.To) {
			return d, d.From, d.To
		}
		if d.Both && slices.Contains(fromLabels, d.To) && slices.Contains(toLabels, d.From) {
			return d, d.To, d.From
		}
	}
	return nil, "", ""
}

// labelsOf returns the labels of the candidate entities that hold a node
// with key in the tenant (each entity's unique field is its key).
func (w *Writer) labelsOf(ctx context.Context, tx neo4j.ManagedTransaction, candidates []*relDecl, key, tn string) ([]string, error) {
	var names []string
	for _, d := range candidates {
		for _, n := range []string{d.From, d.To} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	var branches []string
	for _, n := range names {
		m, err := w.nodeMatch("a", n, "$key")
		if err != nil {
			return nil, err
		}
		branches = append(branches, m+" RETURN labels(a) AS labels")
	}
	res, err := tx.Run(ctx, "CALL () {\n"+strings.Join(branches, "\nUNION ALL\n")+"\n}\nRETURN labels", map[string]any{"key": key, tenant.Param: tn})
	if err != nil {
		return nil, err
	}
	recs, err := res.Collect(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range recs {
		v, _ := r.Get("labels")
		ls, _ := v.([]any)
		for _, l := range ls {
			if s, _ := l.(string); slices.Contains(names, s) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// nodeMatch is the MATCH of entity's node v whose unique field equals the
// parameter param, inside the tenant.
func (w *Writer) nodeMatch(v, entity, param string) (string, error) {
	e := w.m.Entity(entity)
	label, err := ident.Quote(entity)
	if err != nil {
		return "", err
	}
	key, err := ident.Quote(e.UniqueField)
	if err != nil {
		return "", err
	}
	tf, err := ident.Quote(w.m.Tenant.Field)
	if err != nil {
		return "", err
	}
	return "MATCH (" + v + ":" + label + " {" + key + ": " + param + ", " + tf + ": $" + tenant.Param + "})", nil
}

// mergeStatement MERGEs d's relationship from the from node to the to
// node, reporting whether it existed and its declared properties before.
func (w *Writer) mergeStatement(d *relDecl, from, to string) (string, error) {
	ma, err := w.nodeMatch("a", from, "$from")
	if err != nil {
		return "", err
	}
	mb, err := w.nodeMatch("b", to, "$to")
	if err != nil {
		return "", err
	}
	typ, err := ident.Quote(d.Type)
	if err != nil {
		return "", err
	}
	right := "->"
	if d.Both {
		right = "-"
	}
	return ma + "\n" + mb + "\n" +
		"OPTIONAL MATCH (a)-[old:" + typ + "]" + right + "(b)\n" +
		"WITH a, b, count(old) > 0 AS existed, head(collect(old " + projection(d.Props) + ")) AS before\n" +
		"MERGE (a)-[r:" + typ + "]" + right + "(b)\n" +
		"ON CREATE SET r += $created\n" +
		"SET r += $props, r += $set\n" +
		"WITH existed, before LIMIT 1\n" +
		"RETURN existed, before", nil
}
