package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// WarmCalls are the calls whose statements [Engine.Warm] runs so that
// Neo4j plans them before an agent's first call: the heaviest statement
// shapes of the catalog, whose planning takes the longest
// (docs/serving.md, "The first call of a shape"). They are find_paths
// between every ordered pair of the entities it offers at every
// max_length, with its defaults (every relationship type, both
// directions, one path), and explore_relationships from every entity it
// offers, by its unique field, over every relationship type, in each
// direction, at every depth. Shallow levels come first, so a warm-up cut
// short by its time bound has planned the commonest calls.
//
// Neo4j keys its plan cache on the statement's text and its parameters'
// types, and for a string on its length class too (on 5.26 a string of 2
// characters and one of 8 share a plan, one of 1 or 11 does not), so an
// id is a string of the length of one the graph holds for its entity
// (idLike). No entity is expected to have such an id: the statements
// find nothing and end at once, but Neo4j has planned them.
func (e *Engine) WarmCalls(ctx context.Context) ([]Call, error) {
	ids := map[string]any{}
	id := func(entity string) (any, error) {
		if v, ok := ids[entity]; ok {
			return v, nil
		}
		v, err := e.idLike(ctx, entity)
		ids[entity] = v
		return v, err
	}
	var calls []Call
	add := func(tool string, args map[string]any) error {
		b, err := json.Marshal(args)
		calls = append(calls, Call{Name: tool, Arguments: b})
		return err
	}
	l := e.catalog.Limits()
	ends, starts := e.catalog.Entities(planner.FindPaths), e.catalog.Entities(planner.ExploreRelationships)
	types := e.catalog.RelationshipTypes()
	// Level by level, find_paths' before explore_relationships' of the
	// same level.
	for n := 1; n <= max(l.MaxPathLength, l.MaxDepth); n++ {
		if n <= l.MaxPathLength {
			for _, from := range ends {
				for _, to := range ends {
					fid, err := id(from)
					if err != nil {
						return nil, err
					}
					tid, err := id(to)
					if err != nil {
						return nil, err
					}
					if err := add(planner.FindPaths, map[string]any{"from_entity_type": from, "from_id": fid, "to_entity_type": to, "to_id": tid, "max_length": n}); err != nil {
						return nil, err
					}
				}
			}
		}
		if n > l.MaxDepth {
			continue
		}
		for _, start := range starts {
			sid, err := id(start)
			if err != nil {
				return nil, err
			}
			for _, dir := range tools.Directions {
				cond := map[string]any{"field": e.m.Entity(start).UniqueField, "operator": "=", "value": sid}
				if err := add(planner.ExploreRelationships, map[string]any{"start_entity_type": start, "start_conditions": []any{cond}, "relationship_types": types, "direction": dir, "depth": n}); err != nil {
					return nil, err
				}
			}
		}
	}
	return calls, nil
}

// idLike returns an id of entity's unique field for a warm-up call: 0
// for a number (the cache keys a number on its type alone), else a
// string of tildes as long as a stored id of the entity (the first one
// Neo4j reads; 8 characters when there is none), since only its length
// class reaches the cache key.
func (e *Engine) idLike(ctx context.Context, entity string) (any, error) {
	ent := e.m.Entity(entity)
	f := ent.Field(ent.UniqueField)
	if f != nil && f.Type.Kind() == model.Number {
		return 0, nil
	}
	label, err := ident.Quote(entity)
	if err != nil {
		return nil, err
	}
	prop, err := ident.Quote(ent.UniqueField)
	if err != nil {
		return nil, err
	}
	rows, err := e.readRows(ctx, "MATCH (n:"+label+") WHERE n."+prop+" IS NOT NULL RETURN size(toString(n."+prop+")) AS n LIMIT 1", nil)
	if err != nil {
		return nil, fmt.Errorf("reading the length of a %s id: %w", entity, err)
	}
	n := int64(8)
	if len(rows) > 0 {
		if v, ok := rows[0][0].(int64); ok && v > 0 {
			n = v
		}
	}
	return strings.Repeat("~", int(n)), nil
}

// WarmReport says what a warm-up did.
type WarmReport struct {
	// Calls is how many statements it was given; Planned how many of them
	// Neo4j ran (so planned), Skipped how many the catalog refused (a
	// direction an entity does not have).
	Calls, Planned, Skipped int
	// Failed holds the first failures of statements Neo4j did not run.
	Failed []error
	// Took is the warm-up's time.
	Took time.Duration
}

// Warm runs the statement of each call once, reading nothing of its rows,
// so that Neo4j keeps its plan in its query cache and a call of the same
// shape later is not the one that waits while Neo4j plans it (a plan is
// Neo4j's, cached per database and shared by every process; only a
// statement run fills the cache for a run: after an EXPLAIN of the same
// text, the first run still takes most of the planning time). Up to
// workers statements run at once. Nothing is recorded: no usage counts,
// no notes. The calls run under the tenant ctx binds, else the engine's
// (Execute's rule), whose length class the cache key holds as it holds
// an id's: a warm-up helps the calls of tenants of that class. Warm stops
// when ctx is done; progress, when given, is called after each call.
func (e *Engine) Warm(ctx context.Context, calls []Call, workers int, progress func(done int)) WarmReport {
	start := time.Now()
	r := WarmReport{Calls: len(calls)}
	if e.opts.Driver == nil {
		r.Failed = append(r.Failed, ErrNoDriver)
		return r
	}
	ctx, err := e.bindTenant(ctx)
	if err != nil {
		r.Failed = append(r.Failed, err)
		return r
	}
	type outcome struct {
		planned bool
		err     error
	}
	// out holds every outcome, so a worker never waits on a warm-up
	// that has stopped.
	jobs, out := make(chan Call), make(chan outcome, len(calls))
	for range max(1, workers) {
		go func() {
			for c := range jobs {
				planned, err := e.warm(ctx, c)
				out <- outcome{planned, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, c := range calls {
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	for done := 1; done <= len(calls); done++ {
		var o outcome
		select {
		case o = <-out:
		case <-ctx.Done():
			r.Failed = append(r.Failed, fmt.Errorf("stopped after %d of %d statements: %w", done-1, len(calls), context.Cause(ctx)))
			r.Took = time.Since(start)
			return r
		}
		switch {
		case o.planned:
			r.Planned++
		case o.err == nil:
			r.Skipped++
		case len(r.Failed) < 3:
			r.Failed = append(r.Failed, o.err)
		}
		if progress != nil {
			progress(done)
		}
	}
	r.Took = time.Since(start)
	return r
}

// warm plans c and runs its statement as a call's read runs it (the
// warmed tools' statements have no total and no scan); a call the
// catalog refuses is skipped (false, nil).
func (e *Engine) warm(ctx context.Context, c Call) (bool, error) {
	st, err := e.Plan(ctx, c)
	var ce *tools.CallError
	if errors.As(err, &ce) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("planning %s %s: %w", c.Name, c.Arguments, err)
	}
	err = neo4jtx.ReadOne(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, st.Cypher, runParams(st), func(res neo4j.ResultWithContext) error {
		_, err := res.Consume(ctx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("running %s %s: %w", c.Name, c.Arguments, err)
	}
	return true, nil
}
