package materialize

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// StateLabel is the label of the state nodes, one per materialized
// entity.field. The state lives in Neo4j next to the data (docs/design.md,
// invariant 3), so every process that plans queries sees the same truth.
const StateLabel = "_RagforgeMaterialization"

// Status is where a field's materialization stands.
type Status string

// The statuses a state node holds.
const (
	// StatusBuilding: values are being written (or a write was
	// interrupted); the planner computes the field at runtime.
	StatusBuilding Status = "building"
	// StatusReady: every node holds the value for Hash and the index (if
	// any) is online; the planner may read the property.
	StatusReady Status = "ready"
	// StatusDropping: values are being removed; the planner computes at
	// runtime, and re-running drop (or apply) finishes the job.
	StatusDropping Status = "dropping"
)

// FieldState is one state node: who owns which property, for which
// expression, how far the write got.
type FieldState struct {
	Entity   string `json:"entity"`
	Field    string `json:"name"`
	Property string `json:"property"`
	Hash     string `json:"hash"`
	Status   Status `json:"status"`
	// Rows is how many nodes the last (or current) write has set.
	Rows int64 `json:"rows"`
	// Cursor is the elementId of the last node an interrupted unwind
	// write finished, "" when no write is under way; a resumed apply or
	// refresh continues after it. A state an older ragforge wrote holds
	// an integer (an id(), which Cypher 25 removes): it reads as "", so
	// the next apply starts the field over, rows from zero, instead of
	// resuming from an id no statement can compare.
	Cursor string `json:"-"`
	// Index is the name of the range index apply created, "" if none.
	Index      string    `json:"index,omitempty"`
	StartedAt  time.Time `json:"started_at,omitzero"`
	UpdatedAt  time.Time `json:"updated_at,omitzero"`
	FinishedAt time.Time `json:"finished_at,omitzero"`
}

// Ref names the field the state is for.
func (s FieldState) Ref() model.FieldRef {
	return model.FieldRef{Entity: s.Entity, Field: s.Field}
}

// stateConstraint makes a second state node for one entity.field
// impossible, whatever two processes do at once.
var stateConstraint = "CREATE CONSTRAINT ragforge_materialization_field IF NOT EXISTS FOR (s:" + stateLabelQ + ") REQUIRE (s.entity, s.field) IS UNIQUE"

const stateReturn = "s.entity AS entity, s.field AS field, s.property AS property, s.hash AS hash, s.status AS status, " +
	"s.rows AS rows, s.cursor AS cursor, s.index AS index, s.started_at AS started_at, s.updated_at AS updated_at, s.finished_at AS finished_at"

// readStatesQuery returns every state node.
const readStatesQuery = "MATCH (s:" + stateLabelQ + ") RETURN " + stateReturn + " ORDER BY entity, field"

// ReadStatesTx returns every state node, read in tx: a write tool reads
// the states in its own transaction, so what it recomputes matches what
// is stored when it commits.
func ReadStatesTx(ctx context.Context, tx neo4j.ManagedTransaction) ([]FieldState, error) {
	res, err := tx.Run(ctx, readStatesQuery, nil)
	if err != nil {
		return nil, fmt.Errorf("materialize: reading state: %w", err)
	}
	recs, err := res.Collect(ctx)
	if err != nil {
		return nil, fmt.Errorf("materialize: reading state: %w", err)
	}
	out := make([]FieldState, 0, len(recs))
	for _, r := range recs {
		out = append(out, stateFrom(r.AsMap()))
	}
	return out, nil
}

// ReadStates returns every state node of the database.
func ReadStates(ctx context.Context, driver neo4j.DriverWithContext, db string) ([]FieldState, error) {
	q := readStatesQuery
	res, err := neo4jtx.Query(ctx, driver, db, neo4j.AccessModeRead, q, nil)
	if err != nil {
		return nil, fmt.Errorf("materialize: reading state: %w", err)
	}
	out := make([]FieldState, 0, len(res))
	for _, r := range res {
		out = append(out, stateFrom(r.AsMap()))
	}
	return out, nil
}

func stateFrom(m map[string]any) FieldState {
	str := func(k string) string { s, _ := m[k].(string); return s }
	num := func(k string, def int64) int64 {
		if n, ok := m[k].(int64); ok {
			return n
		}
		return def
	}
	tm := func(k string) time.Time {
		switch v := m[k].(type) {
		case time.Time:
			return v.UTC()
		case dbtype.LocalDateTime:
			return time.Time(v).UTC()
		}
		return time.Time{}
	}
	return FieldState{
		Entity: str("entity"), Field: str("field"), Property: str("property"), Hash: str("hash"),
		Status: Status(str("status")), Rows: num("rows", 0), Cursor: str("cursor"), Index: str("index"),
		StartedAt: tm("started_at"), UpdatedAt: tm("updated_at"), FinishedAt: tm("finished_at"),
	}
}

// ReadyState is the model.State the states give for a config whose
// expression hashes are hashes and cache properties are props: a field is
// ready only when its state node says ready, for the same hash and the
// same property. Missing, building, dropping or stale states leave the
// field to runtime (docs/design.md, invariant 3).
func ReadyState(states []FieldState, hashes map[model.FieldRef]string, props map[model.FieldRef]string) model.State {
	out := model.State{}
	for _, s := range states {
		ref := s.Ref()
		if s.Status == StatusReady && s.Hash != "" && s.Hash == hashes[ref] && s.Property == props[ref] {
			out[ref] = true
		}
	}
	return out
}
