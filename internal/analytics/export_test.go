package analytics

import (
	"context"
	"errors"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ErrPlanted is the failure FailAfterProjecting plants.
var ErrPlanted = errors.New("analytics test: planted failure")

// FailAfterProjecting runs a call of the importance tool of entity whose
// algorithm fails once the projection is made; existed says whether the
// projection was in GDS's catalog when it failed.
func FailAfterProjecting(ctx context.Context, a *Analytics, entity string) (existed bool, err error) {
	var gr *graph
	for _, g := range a.m.Analytics.Importance {
		if g.Entity == entity {
			gr = a.graph(g)
		}
	}
	var args ImportanceArgs
	c, err := a.begin(ctx, "test", gr, nil, &args, &args.Relationships)
	if err != nil {
		return false, err
	}
	_, err = a.run(ctx, "test", gr, c, false, "", func(ctx context.Context, tx neo4j.ManagedTransaction, name string, _ projected) (any, error) {
		rec, err := single(ctx, tx, "CALL gds.graph.exists($graph) YIELD exists RETURN exists", map[string]any{"graph": name})
		if err != nil {
			return nil, err
		}
		existed, _ = rec.Values[0].(bool)
		return nil, ErrPlanted
	})
	return existed, err
}

// NewWorkers is New running every algorithm on workers GDS workers, for
// the measurement of what more workers buy.
func NewWorkers(m *model.Model, env tools.Env, workers int) *Analytics {
	a := New(m, env)
	a.concurrency = workers
	return a
}
