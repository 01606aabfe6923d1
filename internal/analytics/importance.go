package analytics

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// PageRank's settings. GDS starts every node at 1 - DampingFactor and
// adds what its in-neighbours pass on (a node's score split over its
// relationships, by weight when weighted); a node without outgoing
// relationships passes nothing on, so scores are not normalized and a
// node nothing points to scores 1 - DampingFactor. The iterations stop
// when no score changes by more than Tolerance, which MaxIterations
// leaves room for: 0.85^200 is about 1e-14.
const (
	DampingFactor = 0.85
	MaxIterations = 200
	Tolerance     = 1e-9
)

// ImportanceArgs are a find_important_<entity> call's arguments.
type ImportanceArgs struct {
	Limit         int      `json:"limit"`
	Relationships []string `json:"relationships"`
}

// Ranked is one entity of an importance result.
type Ranked struct {
	Node
	Score float64 `json:"score"`
}

// ImportanceResult is a find_important_<entity> answer.
type ImportanceResult struct {
	Entity string   `json:"entity"`
	Ranked []Ranked `json:"ranked"`
	projected
	// Iterations PageRank ran, and whether its scores settled within
	// Tolerance before MaxIterations.
	Iterations int64    `json:"iterations"`
	Converged  bool     `json:"converged"`
	Notes      []string `json:"notes,omitempty"`
}

func (a *Analytics) importanceTool(gr *graph) tools.CustomTool {
	name := ImportanceToolName(gr.e.Name)
	return tools.CustomTool{
		Name:     name,
		Category: tools.CategoryAnalytics,
		Description: fmt.Sprintf("Find the most important %s entities by PageRank over %s (a node matters when nodes that matter point to it), "+
			"computed by Neo4j Graph Data Science on at most %d nodes. Returns the top entities with their scores (%.2f for one nothing points to) "+
			"and says when more entities tie with the last one.", gr.e.Name, gr.over(), gr.maxNodes, 1-DampingFactor),
		Input:    tools.Object(gr.commonProps("How many entities to return")...),
		ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args ImportanceArgs
			c, err := a.begin(ctx, name, gr, raw, &args, &args.Relationships)
			if err != nil {
				return nil, err
			}
			return a.importance(ctx, name, gr, c, clamp(args.Limit, DefaultLimit, MaxLimit))
		},
	}
}

// importance runs PageRank on the call's projection and reads its top.
func (a *Analytics) importance(ctx context.Context, tool string, gr *graph, c *call, limit int) (any, error) {
	read, err := gr.readNodes("n")
	if err != nil {
		return nil, err
	}
	conf := map[string]any{"mutateProperty": "score", "dampingFactor": DampingFactor, "maxIterations": MaxIterations,
		"tolerance": Tolerance, "concurrency": a.concurrency}
	if gr.g.Weight != "" {
		conf["relationshipWeightProperty"] = weightProperty
	}
	noise := fmt.Sprintf("PageRank would give every %s the same score (%.2f)", gr.e.Name, 1-DampingFactor)
	return a.run(ctx, tool, gr, c, false, noise, func(ctx context.Context, tx neo4j.ManagedTransaction, name string, size projected) (any, error) {
		r := &ImportanceResult{Entity: gr.e.Name, Ranked: []Ranked{}, projected: size}
		rec, err := single(ctx, tx, "CALL gds.pageRank.mutate($graph, $conf) YIELD ranIterations, didConverge RETURN ranIterations, didConverge",
			map[string]any{"graph": name, "conf": conf})
		if err != nil {
			return nil, err
		}
		r.Iterations, _ = rec.Values[0].(int64)
		r.Converged, _ = rec.Values[1].(bool)
		// One more than the limit tells whether the last score is shared.
		res, err := tx.Run(ctx, "CALL gds.graph.nodeProperty.stream($graph, 'score') YIELD nodeId, propertyValue\n"+
			"WITH nodeId, propertyValue AS score ORDER BY score DESC, nodeId LIMIT $fetch\n"+
			"WITH gds.util.asNode(nodeId) AS n, score"+read.where+"\nRETURN "+read.columns+", score",
			map[string]any{"graph": name, "fetch": limit + 1, tenant.Param: c.tenant})
		if err != nil {
			return nil, err
		}
		for res.Next(ctx) {
			v := res.Record().Values
			score, _ := v[len(v)-1].(float64)
			// run refuses the weights that would give one; a ranking
			// holding a score that is not a number cannot be ordered.
			if math.IsNaN(score) || math.IsInf(score, 0) {
				return nil, fmt.Errorf("analytics: Graph Data Science's PageRank gave %s %v a score of %v", gr.e.Name, read.node(v).Key, score)
			}
			r.Ranked = append(r.Ranked, Ranked{Node: read.node(v), Score: score})
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		slices.SortStableFunc(r.Ranked, func(x, y Ranked) int { return cmp.Compare(y.Score, x.Score) })
		if len(r.Ranked) > limit {
			if r.Ranked[limit].Score == r.Ranked[limit-1].Score {
				r.Notes = append(r.Notes, fmt.Sprintf("more entities share the last score %g; a larger limit shows them", r.Ranked[limit-1].Score))
			}
			r.Ranked = r.Ranked[:limit]
		}
		if !r.Converged {
			r.Notes = append(r.Notes, fmt.Sprintf("PageRank stopped after %d iterations before the scores settled; they are close, not exact", r.Iterations))
		}
		return r, nil
	})
}
