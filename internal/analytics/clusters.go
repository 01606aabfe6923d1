package analytics

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// communityProcedures are the GDS procedures of each algorithm: a fixed
// table, so the procedure a statement calls comes from the model.
var communityProcedures = map[string]string{
	model.Louvain: "gds.louvain.mutate",
	model.Leiden:  "gds.leiden.mutate",
}

// leidenSeed makes Leiden's random choices the same on every call, so the
// same graph gives the same clusters.
const leidenSeed = 19

// ClustersArgs are a find_<entity>_clusters call's arguments.
type ClustersArgs struct {
	Limit         int      `json:"limit"`
	Members       int      `json:"members"`
	MinSize       int      `json:"min_size"`
	Relationships []string `json:"relationships"`
}

// Member is one of a cluster's top members, by its number of
// relationships in the projected graph.
type Member struct {
	Node
	Degree float64 `json:"degree"`
}

// Cluster is one community of a clusters result.
type Cluster struct {
	Size       int64    `json:"size"`
	TopMembers []Member `json:"top_members"`
}

// ClustersResult is a find_<entity>_clusters answer.
type ClustersResult struct {
	Entity    string `json:"entity"`
	Algorithm string `json:"algorithm"`
	// Clusters are the largest communities of at least MinSize members,
	// largest first.
	Clusters []Cluster `json:"clusters"`
	// Modularity of the whole partition (GDS's): the share of
	// relationships inside communities beyond what chance would put
	// there, from -0.5 to 1. It is null, with a note, when GDS gives no
	// number for it (NaN or infinite), which JSON cannot carry.
	Modularity *float64 `json:"modularity"`
	// Total counts every community, Eligible those of at least MinSize.
	Total    int64 `json:"clusters_total"`
	Eligible int64 `json:"clusters_of_min_size"`
	MinSize  int   `json:"min_size"`
	projected
	Notes []string `json:"notes,omitempty"`
}

func (a *Analytics) clustersTool(gr *graph, c *model.AnalyticsClusters) tools.CustomTool {
	name := ClustersToolName(gr.e.Name)
	props := gr.commonProps("How many clusters to return, largest first")
	props = append(props,
		tools.Prop{Name: "members", Schema: &tools.Schema{Type: "integer", Description: "Top members shown per cluster, most connected first",
			Default: DefaultMembers, Minimum: tools.Num(1), Maximum: tools.Num(MaxMembers)}},
		tools.Prop{Name: "min_size", Schema: &tools.Schema{Type: "integer", Description: "Least members of a returned cluster", Default: c.MinSize, Minimum: tools.Num(1)}})
	return tools.CustomTool{
		Name:     name,
		Category: tools.CategoryAnalytics,
		Description: fmt.Sprintf("Find clusters of %s entities: communities of %s (undirected) by %s, computed by Neo4j Graph Data Science on at most %d nodes. "+
			"Returns the largest clusters with their sizes and most connected members, how many clusters there are, and the partition's modularity "+
			"(above about 0.3, the clusters are clearly separated).", gr.e.Name, gr.over(), algorithmName(c.Algorithm), gr.maxNodes),
		Input:    tools.Object(props...),
		ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args ClustersArgs
			call, err := a.begin(ctx, name, gr, raw, &args, &args.Relationships)
			if err != nil {
				return nil, err
			}
			minSize := args.MinSize
			if minSize <= 0 {
				minSize = c.MinSize
			}
			return a.clusters(ctx, name, gr, c.Algorithm, call, clamp(args.Limit, DefaultLimit, MaxLimit), clamp(args.Members, DefaultMembers, MaxMembers), minSize)
		},
	}
}

func algorithmName(alg string) string {
	if alg == model.Leiden {
		return "Leiden"
	}
	return "Louvain"
}

// clusters runs the community algorithm on the call's projection, then
// reads the sizes of its communities and the top members of the largest.
func (a *Analytics) clusters(ctx context.Context, tool string, gr *graph, alg string, c *call, limit, members, minSize int) (any, error) {
	read, err := gr.readNodes("n")
	if err != nil {
		return nil, err
	}
	proc, ok := communityProcedures[alg]
	if !ok {
		return nil, fmt.Errorf("analytics: unknown algorithm %q", alg)
	}
	conf := map[string]any{"mutateProperty": "community", "concurrency": a.concurrency}
	if alg == model.Leiden {
		conf["randomSeed"] = leidenSeed
	}
	if gr.g.Weight != "" {
		conf["relationshipWeightProperty"] = weightProperty
	}
	noise := fmt.Sprintf("every %s would be a cluster of its own", gr.e.Name)
	return a.run(ctx, tool, gr, c, true, noise, func(ctx context.Context, tx neo4j.ManagedTransaction, name string, size projected) (any, error) {
		r := &ClustersResult{Entity: gr.e.Name, Algorithm: alg, Clusters: []Cluster{}, MinSize: minSize, projected: size}
		params := map[string]any{"graph": name, "conf": conf, "min": minSize, "limit": limit, "members": members, "concurrency": a.concurrency, tenant.Param: c.tenant}
		rec, err := single(ctx, tx, "CALL "+proc+"($graph, $conf) YIELD modularity RETURN modularity", params)
		if err != nil {
			return nil, err
		}
		if q, _ := rec.Values[0].(float64); math.IsNaN(q) || math.IsInf(q, 0) {
			r.Notes = append(r.Notes, fmt.Sprintf("the modularity is undefined on this graph (Graph Data Science gave %v), so it is null", q))
		} else {
			r.Modularity = &q
		}
		if err := consume(ctx, tx, "CALL gds.degree.mutate($graph, {mutateProperty: 'degree', concurrency: $concurrency}) YIELD nodePropertiesWritten RETURN nodePropertiesWritten", params); err != nil {
			return nil, err
		}
		rec, err = single(ctx, tx, "CALL gds.graph.nodeProperty.stream($graph, 'community') YIELD nodeId, propertyValue\n"+
			"WITH propertyValue AS community, count(*) AS size ORDER BY size DESC, community\n"+
			"WITH collect({community: community, size: size}) AS cs\n"+
			"WITH size(cs) AS total, cs[0].size AS largest, [c IN cs WHERE c.size >= $min] AS eligible\n"+
			"RETURN total, size(eligible) AS eligible, [c IN eligible[..$limit] | c.community] AS top, [c IN eligible[..$limit] | c.size] AS sizes, largest", params)
		if err != nil {
			return nil, err
		}
		r.Total, _ = rec.Values[0].(int64)
		r.Eligible, _ = rec.Values[1].(int64)
		top, _ := rec.Values[2].([]any)
		sizes, _ := rec.Values[3].([]any)
		if largest, _ := rec.Values[4].(int64); r.Eligible == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("none of the %d clusters has %d or more members (the largest has %d); a min_size of %d or less shows them",
				r.Total, minSize, largest, largest))
		}
		index := map[int64]int{}
		for i, id := range top {
			n, _ := sizes[i].(int64)
			index[id.(int64)] = i
			r.Clusters = append(r.Clusters, Cluster{Size: n, TopMembers: []Member{}})
		}
		if len(top) == 0 {
			return r, nil
		}
		params["top"] = top
		res, err := tx.Run(ctx, "CALL gds.graph.nodeProperty.stream($graph, 'community') YIELD nodeId, propertyValue AS community\n"+
			"WITH nodeId, community WHERE community IN $top\n"+
			"WITH community, nodeId, gds.util.nodeProperty($graph, nodeId, 'degree') AS degree ORDER BY community, degree DESC, nodeId\n"+
			"WITH community, collect({id: nodeId, degree: degree})[..$members] AS members\n"+
			"UNWIND members AS m\n"+
			"WITH community, m.degree AS degree, gds.util.asNode(m.id) AS n"+read.where+"\n"+
			"RETURN "+read.columns+", community, degree", params)
		if err != nil {
			return nil, err
		}
		for res.Next(ctx) {
			v := res.Record().Values
			community, _ := v[len(v)-2].(int64)
			degree, _ := v[len(v)-1].(float64)
			cl := &r.Clusters[index[community]]
			cl.TopMembers = append(cl.TopMembers, Member{Node: read.node(v), Degree: degree})
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		for i := range r.Clusters {
			slices.SortStableFunc(r.Clusters[i].TopMembers, func(x, y Member) int { return cmp.Compare(y.Degree, x.Degree) })
		}
		if r.Eligible > int64(len(r.Clusters)) {
			r.Notes = append(r.Notes, fmt.Sprintf("%d more clusters of at least %d members; a larger limit shows them", r.Eligible-int64(len(r.Clusters)), minSize))
		}
		return r, nil
	})
}
