package analytics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// dropTimeout bounds the drop of a call's projection, which runs after
// the call, in a context of its own: a call that timed out still drops.
const dropTimeout = 10 * time.Second

// GraphPrefix starts the name of every projection the tools make, so an
// operator can tell them in gds.graph.list().
const GraphPrefix = "ragforge_"

// weightProperty is the relationship property of a weighted projection.
const weightProperty = "weight"

// DefaultConcurrency is the GDS workers of every algorithm unless
// Options.Concurrency says otherwise. On this project's 2-core test
// machine more than 1 was slower, not faster (README, "Graph analytics",
// has the measurements and the command).
const DefaultConcurrency = 1

// projected is the size of a call's projection.
type projected struct {
	Nodes         int64 `json:"nodes"`
	Relationships int64 `json:"relationships"`
}

// newGraphName returns a projection name no other call uses: the prefix
// and 16 random hex digits. It never holds agent text.
func newGraphName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return GraphPrefix + hex.EncodeToString(b[:])
}

// statements are the Cypher of a graph's projection, built from the
// model only.
type statements struct {
	count, project string
}

// projectionStatements writes the count and the projection of gr over
// types; undirected projects each relationship both ways (communities),
// otherwise in its stored direction (PageRank).
func (gr *graph) projectionStatements(types []string, undirected bool) (statements, error) {
	label, err := ident.Quote(gr.e.Name)
	if err != nil {
		return statements{}, err
	}
	quoted := make([]string, len(types))
	for i, t := range types {
		if quoted[i], err = ident.Quote(t); err != nil {
			return statements{}, err
		}
	}
	scoped := func(v string) (string, error) { return gr.scope(v) }
	ws, err := scoped("s")
	if err != nil {
		return statements{}, err
	}
	wt, err := scoped("t")
	if err != nil {
		return statements{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MATCH (s:%s)%s\nOPTIONAL MATCH (s)-[r:%s]->(t:%s)%s\n", label, ws, strings.Join(quoted, "|"), label, wt)
	data := "{}"
	if gr.g.Weight != "" {
		w, err := ident.Quote(gr.g.Weight)
		if err != nil {
			return statements{}, err
		}
		data = fmt.Sprintf("{relationshipProperties: CASE WHEN r IS NULL THEN null ELSE {%s: coalesce(toFloat(r.%s), 1.0)} END}", weightProperty, w)
	}
	conf := "{}"
	if undirected {
		conf = "{undirectedRelationshipTypes: ['*']}"
	}
	fmt.Fprintf(&b, "WITH gds.graph.project($graph, s, t, %s, %s) AS g\nRETURN g.nodeCount AS nodes, g.relationshipCount AS relationships", data, conf)
	return statements{
		count:   fmt.Sprintf("MATCH (s:%s)%s\nRETURN count(s) AS nodes", label, ws),
		project: b.String(),
	}, nil
}

// scope is the WHERE clause that keeps node v in the bound tenant, ""
// without a tenant.
func (gr *graph) scope(v string) (string, error) {
	if gr.tenantField == "" {
		return "", nil
	}
	f, err := ident.Quote(gr.tenantField)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(" WHERE %s.%s = $%s", v, f, tenant.Param), nil
}

// algorithm runs on a call's projection, in the call's transaction, and
// returns the call's result.
type algorithm func(ctx context.Context, tx neo4j.ManagedTransaction, name string, size projected) (any, error)

// run projects gr for call c under a name of its own, runs alg on it and
// drops the projection whatever happens. A graph of more than max_nodes
// is refused with a CallError; an empty one returns empty without
// running alg.
func (a *Analytics) run(ctx context.Context, tool string, gr *graph, c *call, undirected bool, empty any, alg algorithm) (any, error) {
	st, err := gr.projectionStatements(c.types, undirected)
	if err != nil {
		return nil, err
	}
	name := newGraphName()
	defer a.drop(ctx, name)
	params := map[string]any{"graph": name, tenant.Param: c.tenant}
	return neo4jtx.Read(ctx, a.opts.Driver, a.opts.Database, a.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		// A retried attempt finds the projection of the one before.
		if err := consume(ctx, tx, "CALL gds.graph.drop($graph, false) YIELD graphName RETURN graphName", params); err != nil {
			return nil, err
		}
		rec, err := single(ctx, tx, st.count, params)
		if err != nil {
			return nil, err
		}
		n, _ := rec.Values[0].(int64)
		if n > int64(gr.maxNodes) {
			return nil, tools.Fail(tool, "", nil, "%s has %d nodes here, more than the %d one call may analyse (analytics.max_nodes); ask the operator to raise the bound", gr.e.Name, n, gr.maxNodes)
		}
		if n == 0 {
			return empty, nil
		}
		if rec, err = single(ctx, tx, st.project, params); err != nil {
			return nil, err
		}
		var size projected
		size.Nodes, _ = rec.Values[0].(int64)
		size.Relationships, _ = rec.Values[1].(int64)
		return alg(ctx, tx, name, size)
	})
}

// drop removes the projection name, if it exists, in a context of its own
// that outlives the call's (canceled or past its deadline) by at most
// dropTimeout. A failed drop is not the call's failure: the projection
// holds no one's data but this call's and is named for an operator to
// find.
func (a *Analytics) drop(ctx context.Context, name string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropTimeout)
	defer cancel()
	_, _ = neo4jtx.Read(dctx, a.opts.Driver, a.opts.Database, dropTimeout, func(tx neo4j.ManagedTransaction) (any, error) {
		return nil, consume(dctx, tx, "CALL gds.graph.drop($graph, false) YIELD graphName RETURN graphName", map[string]any{"graph": name})
	})
}

// single runs a statement of one row.
func single(ctx context.Context, tx neo4j.ManagedTransaction, q string, params map[string]any) (*neo4j.Record, error) {
	res, err := tx.Run(ctx, q, params)
	if err != nil {
		return nil, err
	}
	return res.Single(ctx)
}

// consume runs a statement and discards its rows.
func consume(ctx context.Context, tx neo4j.ManagedTransaction, q string, params map[string]any) error {
	res, err := tx.Run(ctx, q, params)
	if err != nil {
		return err
	}
	_, err = res.Consume(ctx)
	return err
}
