package materialize

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// hashVersion changes when the hash's input changes form, so values
// written under an older form are rewritten rather than trusted.
const hashVersion = "ragforge-materialize-1"

// Hashes returns the expression hash of every computed field, keyed by
// entity and field: a SHA-256 of the field's compiled runtime Cypher (the
// expression with every dependency inlined, and the CALL subqueries of raw
// cypher fields), its type, and its direct dependencies' hashes. Stored
// values are trusted only while the state's hash equals this one, so any
// change to the expression, to a field it reads, or to how the compiler
// writes Cypher sends the planner back to runtime until apply rewrites
// the values.
func Hashes(cm *computed.Model) (map[model.FieldRef]string, error) {
	out := map[model.FieldRef]string{}
	for _, e := range cm.Model().Entities {
		name := e.Name
		ce := cm.Entity(name)
		// Order lists dependencies first, so their hashes exist.
		for _, f := range ce.Order {
			frag, err := f.Fragment(computed.Options{})
			if err != nil {
				return nil, fmt.Errorf("materialize: %s.%s: %w", name, f.Config.Name, err)
			}
			h := sha256.New()
			put := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) }
			put(hashVersion)
			put(string(f.Config.Type))
			put(frag.Cypher)
			for _, s := range frag.Subqueries {
				put(s)
			}
			for _, d := range f.DependsOn {
				put(d)
				put(out[model.FieldRef{Entity: name, Field: d}])
			}
			out[model.FieldRef{Entity: name, Field: f.Config.Name}] = hex.EncodeToString(h.Sum(nil))
		}
	}
	return out, nil
}

// nowProbe replaces now() in a probe compilation, to see whether a field
// reads the clock.
const nowProbe = "$__rf_now_probe"

// Staleness says why a field's stored value can go out of date without any
// change to the node's own stored fields, or "" when it cannot: the field
// (or one it reads) is a raw cypher field, which reads other nodes, or it
// reads now(). Such fields may still be materialized; refresh recomputes
// them.
func Staleness(f *computed.Field, ce *computed.Entity) string {
	var cyphers []string
	seen := map[string]bool{}
	var walk func(f *computed.Field)
	walk = func(f *computed.Field) {
		if seen[f.Config.Name] {
			return
		}
		seen[f.Config.Name] = true
		if f.Config.Cypher != "" {
			cyphers = append(cyphers, f.Config.Name)
		}
		for _, d := range f.DependsOn {
			if df := ce.Field(d); df != nil {
				walk(df)
			}
		}
	}
	walk(f)
	var why []string
	if len(cyphers) > 0 {
		if len(cyphers) == 1 && cyphers[0] == f.Config.Name {
			why = append(why, "it is a cypher field (reads other nodes)")
		} else {
			why = append(why, "it reads cypher field "+strings.Join(cyphers, ", ")+" (other nodes)")
		}
	}
	if frag, err := f.Fragment(computed.Options{Now: nowProbe}); err == nil && (strings.Contains(frag.Cypher, nowProbe) || strings.Contains(strings.Join(frag.Subqueries, " "), nowProbe)) {
		why = append(why, "it reads now()")
	}
	return strings.Join(why, " and ")
}
