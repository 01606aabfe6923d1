package peers

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
)

// Profile compares one workload's two statements on the database alone,
// to tell the database's part of a latency from each side's own: the
// PROFILE of each, and the median of each run with the Go driver in a
// read transaction, records collected.
type Profile struct {
	Workload Workload
	// RagforgeCypher is ragforge's statement (engine.Plan); GraphQLCypher
	// is the one @neo4j/graphql sent (GraphQL.Cypher).
	RagforgeCypher, GraphQLCypher string
	// RagforgePlan and GraphQLPlan are the PROFILE trees, one operator a
	// line with its rows and db hits.
	RagforgePlan, GraphQLPlan string
	// RagforgeHits and GraphQLHits are the plans' total db hits.
	RagforgeHits, GraphQLHits int64
	// RagforgeDriver and GraphQLDriver are the statements' median
	// latencies on the Go driver.
	RagforgeDriver, GraphQLDriver time.Duration
}

// ProfileWorkloads profiles every workload, timing each statement n times
// on the driver (alternating, after warm-up runs). ragforge's statement
// runs with the parameters engine.Plan gives (Execute asks for one row
// more, to report truncation).
func ProfileWorkloads(ctx context.Context, d neo4j.DriverWithContext, db string, e *engine.Engine, gql *GraphQL, ws []Workload, n int) ([]Profile, error) {
	var out []Profile
	for _, w := range ws {
		st, err := e.Plan(ctx, w.Call)
		if err != nil {
			return nil, fmt.Errorf("%s: ragforge: %w", w.Key, err)
		}
		gc, gp, err := gql.Cypher(w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w.Key, err)
		}
		p := Profile{Workload: w, RagforgeCypher: st.Cypher, GraphQLCypher: gc}
		if p.RagforgePlan, p.RagforgeHits, err = ProfileCypher(ctx, d, db, st.Cypher, st.Params); err != nil {
			return nil, fmt.Errorf("%s: ragforge's statement: %w", w.Key, err)
		}
		if p.GraphQLPlan, p.GraphQLHits, err = ProfileCypher(ctx, d, db, gc, gp); err != nil {
			return nil, fmt.Errorf("%s: @neo4j/graphql's statement: %w", w.Key, err)
		}
		var rf, gq []time.Duration
		for i := range n + 5 {
			a, err := TimeRead(ctx, d, db, Collect(st.Cypher, st.Params))
			if err != nil {
				return nil, err
			}
			b, err := TimeRead(ctx, d, db, Collect(gc, gp))
			if err != nil {
				return nil, err
			}
			if i >= 5 {
				rf, gq = append(rf, a), append(gq, b)
			}
		}
		p.RagforgeDriver, p.GraphQLDriver = Median(rf), Median(gq)
		out = append(out, p)
	}
	return out, nil
}

// ReadWork is the work of one read transaction: a statement (Collect), or
// the steps of a statement the engine runs in two (a scan and its fetch).
type ReadWork func(ctx context.Context, tx neo4j.ManagedTransaction) error

// Collect is the work of running one statement and collecting its records,
// so every record crosses the network as it does for a caller.
func Collect(cypher string, params map[string]any) ReadWork {
	return func(ctx context.Context, tx neo4j.ManagedTransaction) error {
		res, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return err
		}
		_, err = res.Collect(ctx)
		return err
	}
}

// TimeRead runs work in one read transaction on a new session and returns
// how long it took, the session's opening included (as for every call).
func TimeRead(ctx context.Context, d neo4j.DriverWithContext, db string, work ReadWork) (time.Duration, error) {
	sess := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	start := time.Now()
	_, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		return nil, work(ctx, tx)
	})
	return time.Since(start), err
}

// ProfileCypher runs PROFILE of a statement and returns its plan, one
// operator a line with its rows and db hits, and the plan's total db hits.
func ProfileCypher(ctx context.Context, d neo4j.DriverWithContext, db, cypher string, params map[string]any) (string, int64, error) {
	res, err := neo4j.ExecuteQuery(ctx, d, "PROFILE "+cypher, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(db), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", 0, err
	}
	var b strings.Builder
	var hits int64
	var walk func(p neo4j.ProfiledPlan, depth int)
	walk = func(p neo4j.ProfiledPlan, depth int) {
		hits += p.DbHits()
		details, _ := p.Arguments()["Details"].(string)
		fmt.Fprintf(&b, "    %s%s rows=%d dbHits=%d  %s\n", strings.Repeat("  ", depth), strings.TrimSuffix(p.Operator(), "@neo4j"),
			p.Records(), p.DbHits(), strings.Join(strings.Fields(details), " "))
		for _, c := range p.Children() {
			walk(c, depth+1)
		}
	}
	if pp := res.Summary.Profile(); pp != nil {
		walk(pp, 0)
	}
	return b.String(), hits, nil
}

// WriteProfiles renders the profiles after the timings they explain: per
// workload, the statements' driver medians, what each side adds to its
// statement (its median in ts minus the driver median: approximate, the
// two were measured at different moments), db hits, then both plans.
func WriteProfiles(w io.Writer, ps []Profile, ts []Timing) {
	fmt.Fprintln(w, "\n| workload | ragforge's statement on the Go driver | @neo4j/graphql's statement on the Go driver | Execute adds | graphql() adds | db hits (ragforge / graphql) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for i, p := range ps {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d / %d |\n", p.Workload.Key, Millis(p.RagforgeDriver), Millis(p.GraphQLDriver),
			Millis(ts[i].Ragforge-p.RagforgeDriver), Millis(ts[i].GraphQL-p.GraphQLDriver), p.RagforgeHits, p.GraphQLHits)
	}
	for _, p := range ps {
		fmt.Fprintf(w, "\n%s — ragforge:\n%s  @neo4j/graphql:\n%s", p.Workload.Name, p.RagforgePlan, p.GraphQLPlan)
	}
}
