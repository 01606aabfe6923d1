package materialize

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// FieldStatus is one line of `materialize status`: a computed field of the
// config, or a state node whose field left the config.
type FieldStatus struct {
	Entity   string `json:"entity"`
	Name     string `json:"name"`
	Property string `json:"property"`
	// Status is none, building, ready, dropping, or stale (a ready state
	// for another expression hash or property: the planner ignores it).
	Status string `json:"status"`
	Rows   int64  `json:"rows"`
	// Readable is true when the planner reads the stored property.
	Readable   bool      `json:"readable"`
	InConfig   bool      `json:"in_config"`
	Hash       string    `json:"hash,omitempty"`
	StateHash  string    `json:"state_hash,omitempty"`
	Index      string    `json:"index,omitempty"`
	StartedAt  time.Time `json:"started_at,omitzero"`
	UpdatedAt  time.Time `json:"updated_at,omitzero"`
	FinishedAt time.Time `json:"finished_at,omitzero"`
}

// Status lists every computed field's state, then the state nodes of
// fields no longer in the config.
func (x *Materializer) Status(ctx context.Context) ([]FieldStatus, error) {
	facts, err := ReadFacts(ctx, x.driver, x.opts.Database, x.m)
	if err != nil {
		return nil, err
	}
	plans, err := Plan(x.cm, nil, facts, x.opts.Now())
	if err != nil {
		return nil, err
	}
	var out []FieldStatus
	for _, p := range plans {
		fs := FieldStatus{Entity: p.Entity, Name: p.Name, Property: p.Property, Status: p.StateLabel(), Readable: p.Current, InConfig: true, Hash: p.Hash}
		if s := p.State; s != nil {
			fs.Rows, fs.StateHash, fs.Index, fs.StartedAt, fs.UpdatedAt, fs.FinishedAt = s.Rows, s.Hash, s.Index, s.StartedAt, s.UpdatedAt, s.FinishedAt
			fs.Property = s.Property
		}
		out = append(out, fs)
	}
	for _, s := range facts.States {
		if slices.ContainsFunc(plans, func(p *FieldPlan) bool { return p.Ref() == s.Ref() }) {
			continue
		}
		out = append(out, FieldStatus{Entity: s.Entity, Name: s.Field, Property: s.Property, Status: string(s.Status), Rows: s.Rows,
			StateHash: s.Hash, Index: s.Index, StartedAt: s.StartedAt, UpdatedAt: s.UpdatedAt, FinishedAt: s.FinishedAt})
	}
	return out, nil
}

// Drift is one line of `materialize verify`.
type Drift struct {
	Entity string `json:"entity"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Drift counts nodes whose stored value differs from the runtime
	// value: another value, another type (an integer where the runtime
	// value is a float), or null on one side only.
	Drift int64 `json:"drift"`
	// Nodes is how many nodes were compared.
	Nodes int64 `json:"nodes"`
}

// Verify compares, for every materialized field of the config (or only
// the named ones), the stored property with the runtime value on every
// node of the label. It reads only.
func (x *Materializer) Verify(ctx context.Context, only []model.FieldRef) ([]Drift, error) {
	facts, err := ReadFacts(ctx, x.driver, x.opts.Database, x.m)
	if err != nil {
		return nil, err
	}
	plans, err := Plan(x.cm, nil, facts, x.opts.Now())
	if err != nil {
		return nil, err
	}
	if err := checkSelection(plans, nil, only); err != nil {
		return nil, err
	}
	var out []Drift
	for _, p := range plans {
		if !selected(only, p.Ref()) || p.State == nil {
			continue
		}
		label, prop, err := labelAndProperty(p.Entity, p.State.Property)
		if err != nil {
			return nil, err
		}
		prop = "n." + prop
		q := "MATCH (n:" + label + ")\n"
		for _, sq := range p.Fragment.Subqueries {
			q += sq + "\n"
		}
		q += "WITH " + prop + " AS s, " + p.Fragment.Cypher + " AS v\n" +
			"RETURN count(*) AS nodes, count(CASE WHEN " + differs + " THEN 1 END) AS drift"
		res, err := neo4jtx.Query(ctx, x.driver, x.opts.Database, neo4j.AccessModeRead, q, nil)
		if err != nil {
			return nil, fmt.Errorf("materialize: verifying %s.%s: %w", p.Entity, p.Name, err)
		}
		m := res[0].AsMap()
		nodes, _ := m["nodes"].(int64)
		drift, _ := m["drift"].(int64)
		out = append(out, Drift{Entity: p.Entity, Name: p.Name, Status: p.StateLabel(), Drift: drift, Nodes: nodes})
	}
	return out, nil
}
