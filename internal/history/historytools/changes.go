package historytools

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/ragforge/ragforge/model"
)

// Change is one recorded change as the tools return it.
type Change struct {
	ID            string         `json:"id"`
	EntityType    string         `json:"entity_type"`
	Key           string         `json:"key"`
	Kind          string         `json:"kind"`
	Timestamp     string         `json:"timestamp"`
	ChangedFields []string       `json:"changed_fields,omitempty"`
	OldValues     map[string]any `json:"old_values,omitempty"`
	NewValues     map[string]any `json:"new_values,omitempty"`
	LinesAdded    int64          `json:"lines_added"`
	LinesRemoved  int64          `json:"lines_removed"`
	Diff          string         `json:"diff,omitempty"`
	Source        string         `json:"source,omitempty"`
	Confidence    *float64       `json:"confidence,omitempty"`
	Commit        string         `json:"commit,omitempty"`
	Author        string         `json:"author,omitempty"`
	Message       string         `json:"message,omitempty"`
	// RenamedFrom is, on a git import's Change of a commit that renamed
	// the file, the file's path before it.
	RenamedFrom string `json:"renamed_from,omitempty"`
	// Relationship names the relationship a relationship write changed
	// (its fields and values are the relationship's properties).
	Relationship *Relationship `json:"relationship,omitempty"`
	// at is the time, for ordering and comparing.
	at time.Time
}

// Relationship is a changed relationship seen from the changed entity:
// its type, its stored direction from the entity (outgoing, incoming,
// both) and the entity at its other end.
type Relationship struct {
	Type       string `json:"type"`
	Direction  string `json:"direction"`
	EntityType string `json:"entity_type"`
	Key        string `json:"key"`
}

// field is the name compare_entity_versions gives a changed field of c:
// the field itself, or for a relationship's property the relationship
// and the property (KNOWS->person_ab.since), so that the properties of
// different relationships and the entity's own fields stay apart.
func (c Change) field(name string) string {
	r := c.Relationship
	if r == nil {
		return name
	}
	arrow := map[string]string{string(model.Outgoing): "->", string(model.Incoming): "<-"}[r.Direction]
	if arrow == "" {
		arrow = "-"
	}
	return r.Type + arrow + r.Key + "." + name
}

// projection is the map of a Change's properties a statement returns,
// keyed by role.
func (h *historian) projection() string {
	var items []string
	for _, r := range h.t.Q.Fields.Roles() {
		items = append(items, r[0]+": c."+r[1])
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// changeOf reads a projected Change.
func changeOf(v any) Change {
	p, _ := v.(map[string]any)
	str := func(k string) string { s, _ := p[k].(string); return s }
	num := func(k string) int64 { n, _ := p[k].(int64); return n }
	c := Change{ID: str("key"), EntityType: str("entity_type"), Key: str("entity_key"), Kind: str("kind"),
		LinesAdded: num("lines_added"), LinesRemoved: num("lines_removed"), Diff: str("diff"), Source: str("source"),
		Commit: str("commit"), Author: str("author"), Message: str("message"), RenamedFrom: str("renamed_from")}
	if t, ok := p["timestamp"].(time.Time); ok {
		c.at = t.UTC()
		c.Timestamp = c.at.Format(time.RFC3339Nano)
	}
	if xs, ok := p["changed_fields"].([]any); ok {
		for _, x := range xs {
			if s, ok := x.(string); ok {
				c.ChangedFields = append(c.ChangedFields, s)
			}
		}
	}
	for k, dst := range map[string]*map[string]any{"old_values": &c.OldValues, "new_values": &c.NewValues} {
		if s := str(k); s != "" {
			_ = json.Unmarshal([]byte(s), dst)
		}
	}
	if f, ok := p["confidence"].(float64); ok {
		c.Confidence = &f
	}
	if typ := str("relationship_type"); typ != "" {
		c.Relationship = &Relationship{Type: typ, Direction: str("direction"), EntityType: str("other_entity_type"), Key: str("other_entity_key")}
	}
	return c
}
