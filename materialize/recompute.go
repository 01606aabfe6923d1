package materialize

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// RecomputeParam is the parameter that carries the node's unique id in a
// Recompute statement.
const RecomputeParam = "id"

// Recompute returns the statement a write tool runs after it changed one
// node of entity (found by its unique_field equal to $id): it recomputes
// and stores every named field's value (typically the fields with a
// state node: ready or building). Each value is computed with every
// dependency inlined, so the order of fields does not matter and a stale
// stored dependency is never read. Cypher fields that read other nodes
// are recomputed for this node only; nodes whose cypher fields read this
// one are not found here (refresh recomputes those). It returns "" when
// fields is empty. It runs on every write, so it takes the fields compiled
// once (cm) and compiles nothing.
func Recompute(cm *computed.Model, entity string, fields []string) (string, error) {
	if cm == nil {
		return "", errors.New("materialize: Recompute needs the compiled computed fields")
	}
	m := cm.Model()
	e := m.Entity(entity)
	if e == nil {
		return "", fmt.Errorf("materialize: %q is not an entity (entities: %s)", entity, strings.Join(m.EntityNames(), ", "))
	}
	if len(fields) == 0 {
		return "", nil
	}
	ce := cm.Entity(entity)
	var subs, sets []string
	for _, name := range fields {
		f := ce.Field(name)
		if f == nil {
			return "", fmt.Errorf("materialize: %q is not a computed field of %s", name, entity)
		}
		frag, err := f.Fragment(computed.Options{})
		if err != nil {
			return "", err
		}
		for _, sq := range frag.Subqueries {
			if !slices.Contains(subs, sq) {
				subs = append(subs, sq)
			}
		}
		prop, err := quote(entity+"."+name+" cache property", f.CacheProperty())
		if err != nil {
			return "", err
		}
		sets = append(sets, "n."+prop+" = "+frag.Cypher)
	}
	label, unique, err := labelAndProperty(entity, e.UniqueField)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MATCH (n:%s) WHERE n.%s = $%s\n", label, unique, RecomputeParam)
	for _, sq := range subs {
		b.WriteString(sq)
		b.WriteString("\n")
	}
	b.WriteString("SET ")
	b.WriteString(strings.Join(sets, ", "))
	return b.String(), nil
}

// Materialized lists the computed fields of entity (in m) that have a
// state node other than dropping: the ones a write must keep up to date
// (Recompute's fields). States of fields no longer in the config are left
// out; their values are no longer read.
func Materialized(m *model.Model, states []FieldState, entity string) []string {
	e := m.Entity(entity)
	if e == nil {
		return nil
	}
	var out []string
	for _, s := range states {
		if s.Entity == entity && s.Status != StatusDropping && e.ComputedField(s.Field) != nil {
			out = append(out, s.Field)
		}
	}
	return out
}
