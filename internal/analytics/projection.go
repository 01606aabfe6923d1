package analytics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
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
// a test says otherwise (Analytics.concurrency). On this project's 2-core
// test machine more than 1 was slower, not faster (docs/analytics.md
// has the measurements and the command).
const DefaultConcurrency = 1

// projected is the size of a call's projection: its nodes and the
// stored relationships between them (each counted once, also when the
// projection is undirected and GDS counts it both ways).
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
	data, checks := "{}", "0 AS unusable, count(r) AS weighing"
	if gr.g.Weight != "" {
		w, err := ident.Quote(gr.g.Weight)
		if err != nil {
			return statements{}, err
		}
		fmt.Fprintf(&b, "WITH s, r, t, CASE WHEN r IS NULL THEN null ELSE coalesce(toFloat(r.%s), 1.0) END AS w\n", w)
		data = fmt.Sprintf("{relationshipProperties: CASE WHEN r IS NULL THEN null ELSE {%s: w} END}", weightProperty)
		// GDS drops a relationship whose weight is NaN and turns an
		// infinite one into NaN scores; a zero weight carries nothing.
		checks = "count(CASE WHEN isNaN(w) OR abs(w) = 1.0/0.0 THEN 1 END) AS unusable, count(CASE WHEN w <> 0 THEN 1 END) AS weighing"
	}
	conf := "{}"
	if undirected {
		conf = "{undirectedRelationshipTypes: ['*']}"
	}
	fmt.Fprintf(&b, "WITH gds.graph.project($graph, s, t, %s, %s) AS g, count(r) AS relationships, %s\n"+
		"RETURN g.nodeCount AS nodes, relationships, unusable, weighing", data, conf, checks)
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
// is refused with a CallError, and so is one alg would answer with noise
// (unusable): no nodes, no relationships of the call's types between
// them, weights that are not finite numbers or all zero.
//
// noise says what alg would answer on such a graph, for the error.
func (a *Analytics) run(ctx context.Context, tool string, gr *graph, c *call, undirected bool, noise string, alg algorithm) (any, error) {
	st, err := gr.projectionStatements(c.types, undirected)
	if err != nil {
		return nil, err
	}
	name := newGraphName()
	defer a.drop(ctx, name)
	params := map[string]any{"graph": name, tenant.Param: c.tenant}
	return neo4jtx.Read(ctx, a.env.Driver, a.env.Database, a.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
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
			return nil, gr.unusable(tool, c, noise, 0, fmt.Sprintf("there is no %s node %s", gr.e.Name, c.where()))
		}
		if rec, err = single(ctx, tx, st.project, params); err != nil {
			return nil, err
		}
		var size projected
		var bad, weighing int64
		size.Nodes, _ = rec.Values[0].(int64)
		size.Relationships, _ = rec.Values[1].(int64)
		bad, _ = rec.Values[2].(int64)
		weighing, _ = rec.Values[3].(int64)
		switch {
		case size.Relationships == 0:
			return nil, gr.unusable(tool, c, noise, size.Nodes, fmt.Sprintf("the %d %s nodes %s have no %s relationship between them",
				size.Nodes, gr.e.Name, c.where(), strings.Join(c.types, " or ")))
		case bad > 0:
			return nil, tools.Fail(tool, "", nil, "%d of the %d %s relationships between %s nodes %s have a weight (%s) that is not a finite number (NaN or infinite), "+
				"which Graph Data Science would drop or turn into NaN scores: set those weights to numbers, then call again", bad, size.Relationships, strings.Join(c.types, ", "), gr.e.Name, c.where(), gr.g.Weight)
		case weighing == 0:
			return nil, tools.Fail(tool, "", nil, "all %d %s relationships between the %s nodes %s weigh 0 (%s), so %s: give them weights, then call again",
				size.Relationships, strings.Join(c.types, ", "), gr.e.Name, c.where(), gr.g.Weight, noise)
		}
		return alg(ctx, tx, name, size)
	})
}

// unusable is the CallError of a graph with nothing to analyse: why (what
// is missing), that the algorithm would answer with noise, and how to
// get a graph worth analysing, named from the config: the call's
// relationship types and, when the call narrowed them, the others.
func (gr *graph) unusable(tool string, c *call, noise string, nodes int64, why string) error {
	types := strings.Join(c.types, ", ")
	load := fmt.Sprintf("relationships of type %s between %s nodes", types, gr.e.Name)
	if nodes == 0 {
		load = fmt.Sprintf("%s nodes and relationships of type %s between them", gr.e.Name, types)
	}
	msg := fmt.Sprintf("%s, so %s: load %s, then call again", why, noise, load)
	if other := slices.DeleteFunc(slices.Clone(gr.g.Relationships), func(t string) bool { return slices.Contains(c.types, t) }); len(other) > 0 {
		msg += fmt.Sprintf(", or leave out relationships to follow %s too", strings.Join(other, ", "))
	}
	return tools.Fail(tool, "", nil, "%s", msg)
}

// where says which part of the graph a call reads, for its messages.
func (c *call) where() string {
	if c.tenant != nil {
		return "in this tenant's part of the graph"
	}
	return "in the graph"
}

// drop removes the projection name, if it exists, in a context of its own
// that outlives the call's (canceled or past its deadline) by at most
// dropTimeout. A failed drop is not the call's failure: the projection
// holds no one's data but this call's and is named for an operator to
// find.
func (a *Analytics) drop(ctx context.Context, name string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropTimeout)
	defer cancel()
	_, _ = neo4jtx.Read(dctx, a.env.Driver, a.env.Database, dropTimeout, func(tx neo4j.ManagedTransaction) (any, error) {
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
