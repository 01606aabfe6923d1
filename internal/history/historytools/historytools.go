// Package historytools is the change-history tools of a config's
// change_tracking block: get_entity_change_history,
// find_recently_modified_entities, get_most_modified_entities,
// get_change_statistics and compare_entity_versions, one file each. They
// read the Change nodes that writes (package write) and git imports
// (package gitimport) record, in read transactions bounded by the call's
// deadline; every node a statement reads is compared with the bound
// tenant, and every name in a statement comes from the model.
package historytools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// Category groups the tools in a catalog.
const Category tools.Category = "history"

// Limits of one call.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxBuckets bounds the time buckets of get_change_statistics.
	MaxBuckets = 500
	// DefaultPeriod is the window of find_recently_modified_entities
	// when the call names none.
	DefaultPeriod = "last_7_days"
)

// Options connect the tools to Neo4j.
type Options struct {
	Driver   neo4j.DriverWithContext
	Database string
	// Timeout bounds each read transaction (neo4jtx.DefaultTimeout if zero).
	Timeout time.Duration
	// Now is the clock relative periods count from (time.Now if nil).
	Now func() time.Time
}

// historian runs the tools of one model.
type historian struct {
	m    *model.Model
	opts Options
	t    *change.Tracking
	// types are the tracked entities' names.
	types []string
}

// New returns the change-history tools of m, none when m tracks no
// changes.
func New(m *model.Model, opts Options) ([]tools.CustomTool, error) {
	t, err := change.New(m)
	if err != nil || t == nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = neo4jtx.DefaultTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &historian{m: m, opts: opts, t: t, types: t.Entities}
	return []tools.CustomTool{h.entityHistory(), h.recentlyModified(), h.mostModified(), h.statistics(), h.compareVersions()}, nil
}

// tool wraps a read-only tool's handler: the tenant bound to the call,
// the arguments decoded into A.
func tool[A any](h *historian, name, description string, schema map[string]any, run func(ctx context.Context, tn string, a A) (any, error)) tools.CustomTool {
	schema["type"], schema["additionalProperties"] = "object", false
	raw, _ := json.Marshal(schema)
	return tools.CustomTool{
		Name: name, Category: Category, Description: description, InputSchema: raw, ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			tn, err := tenant.Required(ctx, h.m.Tenant != nil)
			if err != nil {
				return nil, err
			}
			var a A
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, tools.Fail(name, "", nil, "the arguments do not fit the tool's schema: %v", err)
			}
			return run(ctx, tn, a)
		},
	}
}

// read runs work in a read transaction within the call's deadline.
func (h *historian) read(ctx context.Context, work func(tx neo4j.ManagedTransaction) (any, error)) (any, error) {
	return neo4jtx.Read(ctx, h.opts.Driver, h.opts.Database, h.opts.Timeout, work)
}

// rows runs one statement and returns its records.
func rows(ctx context.Context, tx neo4j.ManagedTransaction, q string, params map[string]any) ([]*neo4j.Record, error) {
	res, err := tx.Run(ctx, q, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(ctx)
}

// Schema pieces the tools share.
func (h *historian) entityTypeProp() map[string]any {
	return map[string]any{"type": "string", "enum": h.types}
}

func limitProp() map[string]any {
	return map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLimit, "description": fmt.Sprintf("default %d", DefaultLimit)}
}

func windowProps(props map[string]any) map[string]any {
	props["relative_period"] = map[string]any{"type": "string", "description": "today, yesterday, this_week, last_week, this_month, last_month, this_year, last_year, last_N_minutes|hours|days|weeks|months"}
	props["since"] = map[string]any{"type": "string", "description": "YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM], inclusive"}
	props["until"] = map[string]any{"type": "string", "description": "exclusive"}
	return props
}

// window is a call's time window: relative_period, or since and until;
// ok is false when it names none.
type window struct {
	RelativePeriod string `json:"relative_period"`
	Since          string `json:"since"`
	Until          string `json:"until"`
}

// bounds returns the window [from, to) (zero times for open ends).
func (w window) bounds(tool string, now time.Time) (from, to time.Time, ok bool, err error) {
	if w.RelativePeriod != "" {
		if w.Since != "" || w.Until != "" {
			return from, to, false, tools.Fail(tool, "/relative_period", nil, "give relative_period or since/until, not both")
		}
		from, to, err = tools.RelativePeriod(w.RelativePeriod, now)
		if err != nil {
			return from, to, false, tools.Fail(tool, "/relative_period", nil, "%v", err)
		}
		return from, to, true, nil
	}
	if ok, err = parseTimes(tool, timeArg{w.Since, "/since", &from}, timeArg{w.Until, "/until", &to}); err != nil {
		return from, to, false, err
	}
	if ok && !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return from, to, false, tools.Fail(tool, "/until", nil, "until %s is not after since %s", w.Until, w.Since)
	}
	return from, to, ok, nil
}

// timeArg is an optional datetime argument of a call: its text, its
// path and where its parsed time goes.
type timeArg struct {
	s, path string
	t       *time.Time
}

// parseTimes parses each given argument (tools.ParseDatetime), failing
// at the first bad one's path; given says whether any was given.
func parseTimes(tool string, args ...timeArg) (given bool, err error) {
	for _, x := range args {
		if x.s == "" {
			continue
		}
		if *x.t, err = tools.ParseDatetime(x.s); err != nil {
			return false, tools.Fail(tool, x.path, nil, "%v", err)
		}
		given = true
	}
	return given, nil
}

// limit clamps a call's limit.
func limit(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return min(n, MaxLimit)
}

// checkType refuses an entity type that is not tracked.
func (h *historian) checkType(tool, typ string) error {
	if typ != "" && !slices.Contains(h.types, typ) {
		return tools.Fail(tool, "/entity_type", h.types, "%s is not a tracked entity", typ)
	}
	return nil
}

// changeFilter is the WHERE of a statement over the Changes of c: the
// window, the entity types, a kind and the tenant, all parameters.
func (h *historian) changeFilter(tool string, w window, typ, kind, tn string) (string, map[string]any, error) {
	if err := h.checkType(tool, typ); err != nil {
		return "", nil, err
	}
	if kind != "" && !slices.Contains(change.Kinds, kind) {
		return "", nil, tools.Fail(tool, "/kind", change.Kinds, "%s is not a kind of change", kind)
	}
	// Windows are UTC, as the Changes' times are (a Go zone such as Local
	// has no name Neo4j knows).
	from, to, _, err := w.bounds(tool, h.opts.Now().UTC())
	if err != nil {
		return "", nil, err
	}
	f := h.t.Q.Fields
	types := h.types
	if typ != "" {
		types = []string{typ}
	}
	conds := []string{"c." + f.EntityType + " IN $types"}
	params := map[string]any{"types": types, tenant.Param: tn}
	if !from.IsZero() {
		conds, params["from"] = append(conds, "c."+f.Timestamp+" >= $from"), from.UTC()
	}
	if !to.IsZero() {
		conds, params["to"] = append(conds, "c."+f.Timestamp+" < $to"), to.UTC()
	}
	if kind != "" {
		conds, params["kind"] = append(conds, "c."+f.Kind+" = $kind"), kind
	}
	if h.t.TenantField != "" {
		conds = append(conds, "c."+h.t.Q.Tenant+" = $tenant")
	}
	return "MATCH (c:" + h.t.Q.Label + ")\nWHERE " + strings.Join(conds, " AND ") + "\n", params, nil
}

// node is the pattern of the tracked entity's node with key (and the
// tenant), for the tools that name one.
func (h *historian) node(tool, typ string) (*model.Entity, string, error) {
	if err := h.checkType(tool, typ); err != nil {
		return nil, "", err
	}
	e := h.m.Entity(typ)
	label, err := ident.Quote(e.Name)
	if err != nil {
		return nil, "", err
	}
	key, err := ident.Quote(e.UniqueField)
	if err != nil {
		return nil, "", err
	}
	p := "(n:" + label + " {" + key + ": $key"
	if h.t.TenantField != "" {
		p += ", " + h.t.Q.Tenant + ": $tenant"
	}
	return e, p + "})", nil
}

// notFound is the error of a key no node of e has.
func notFound(tool string, e *model.Entity, key string) error {
	return tools.Fail(tool, "/key", nil, "no %s has %s %q (find it with query_entities or a search tool)", e.Name, e.UniqueField, key)
}

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
		Commit: str("commit"), Author: str("author"), Message: str("message")}
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

// timeOf is a time column in the result's form.
func timeOf(v any) string {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Format(time.RFC3339Nano)
	}
	s, _ := neo4jvalue.Value(v).(string)
	return s
}

// tenantWhere is the WHERE comparing the node v with the tenant ("" when
// the config has none).
func (h *historian) tenantWhere(v string) string {
	if h.t.TenantField == "" {
		return ""
	}
	return " WHERE " + v + "." + h.t.Q.Tenant + " = $tenant"
}

// truncated says a list shows n of total.
func truncated(n int, total int64) string {
	return fmt.Sprintf("showing the newest %d of %d changes; raise limit (at most %d) for more", n, total, MaxLimit)
}
