package analytics_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/analytics"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// planted is one tenant's graph of one entity: nodes in groups, dense
// inside a group and sparse between groups, each group's first node a
// hub its members point to.
type planted struct {
	names []string
	group []int
	// edges are directed (from, to, weight); a pair may be linked both
	// ways, never twice the same way.
	edges [][3]int
}

func plant(seed uint64, prefix string, groups, size int) *planted {
	r := rand.New(rand.NewPCG(seed, 7))
	p := &planted{}
	n := groups * size
	for i := range n {
		p.names = append(p.names, fmt.Sprintf("%s%03d", prefix, i))
		p.group = append(p.group, i/size)
	}
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			prob := 0.02
			if p.group[i] == p.group[j] {
				prob = 0.4
				if j%size == 0 {
					prob = 0.9
				}
			}
			if r.Float64() < prob {
				p.edges = append(p.edges, [3]int{i, j, 1 + r.IntN(3)})
			}
		}
	}
	return p
}

// load writes p as label's nodes of owner, related by typ (weight in w).
func (p *planted) load(t *testing.T, d neo4j.DriverWithContext, label, typ, owner string) {
	t.Helper()
	nodes := make([]any, len(p.names))
	for i, name := range p.names {
		nodes[i] = map[string]any{"name": name, "owner": owner, "group": int64(p.group[i])}
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (n:"+label+") SET n = row", map[string]any{"rows": nodes})
	rels := make([]any, len(p.edges))
	for i, e := range p.edges {
		rels[i] = map[string]any{"a": p.names[e[0]], "b": p.names[e[1]], "w": int64(e[2])}
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (a:"+label+" {name: row.a}), (b:"+label+" {name: row.b}) CREATE (a)-[:"+typ+" {w: row.w}]->(b)", map[string]any{"rows": rels})
}

// pageRank is GDS's PageRank computed in Go by power iteration to a fixed
// point: x = (1-d) + d · Σ_{u→v} x_u · w_uv / W_u, where W_u is u's total
// outgoing weight; a node without outgoing relationships passes nothing
// on (GDS does not redistribute dangling mass).
func pageRank(n int, edges [][3]int, weighted bool) []float64 {
	const d = analytics.DampingFactor
	out := make([]float64, n)
	w := func(e [3]int) float64 {
		if weighted {
			return float64(e[2])
		}
		return 1
	}
	for _, e := range edges {
		out[e[0]] += w(e)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 - d
	}
	for range 10000 {
		next := make([]float64, n)
		for i := range next {
			next[i] = 1 - d
		}
		for _, e := range edges {
			next[e[1]] += d * x[e[0]] * w(e) / out[e[0]]
		}
		change := 0.0
		for i := range x {
			change = max(change, math.Abs(next[i]-x[i]))
		}
		x = next
		if change < 1e-14 {
			break
		}
	}
	return x
}

// modularity of a partition of the undirected graph of edges (each
// relationship once, weight w): Σ_c [L_c/m − (D_c/2m)²], where m is the
// total weight, L_c the weight inside c and D_c the weighted degree of c.
func modularity(community []int, edges [][3]int, weighted bool) float64 {
	var m float64
	inside, degree := map[int]float64{}, map[int]float64{}
	for _, e := range edges {
		w := 1.0
		if weighted {
			w = float64(e[2])
		}
		m += w
		degree[community[e[0]]] += w
		degree[community[e[1]]] += w
		if community[e[0]] == community[e[1]] {
			inside[community[e[0]]] += w
		}
	}
	q := 0.0
	for c, dc := range degree {
		q += inside[c]/m - (dc/(2*m))*(dc/(2*m))
	}
	return q
}

// graphs are the planted graphs of the test, per tenant and entity.
type graphs map[string]map[string]*planted

// setUp plants alice's and bob's graphs (bob's differ), links a few of
// alice's nodes to bob's, and returns the engine on the planted config,
// which detects GDS on the server.
func setUp(t *testing.T) (neo4j.DriverWithContext, *engine.Engine, graphs) {
	d := neo4jtest.Open(t)
	neo4jtest.RequireGDS(t, d)
	m, err := config.Load("testdata/planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := graphs{}
	for i, owner := range []string{"alice", "bob"} {
		g[owner] = map[string]*planted{
			"Fn":  plant(uint64(10+i), owner+"_fn", 4+i, 12),
			"Doc": plant(uint64(20+i), owner+"_doc", 3+i, 10),
		}
		g[owner]["Fn"].load(t, d, "Fn", "LINKS", owner)
		g[owner]["Doc"].load(t, d, "Doc", "CITES", owner)
	}
	neo4jtest.Run(t, d, "MATCH (a:Fn {owner: 'alice'}), (b:Fn {owner: 'bob'}) WHERE a.name < 'alice_fn005' AND b.name < 'bob_fn005' CREATE (a)-[:LINKS {w: 3}]->(b), (b)-[:LINKS {w: 3}]->(a)", nil)
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Capabilities().GDS {
		t.Fatal("the engine did not detect GDS, which neo4jtest.RequireGDS found")
	}
	return d, e, g
}

func call[R any](t *testing.T, e *engine.Engine, who, tool string, args map[string]any) R {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := e.Execute(tenant.With(context.Background(), who), engine.Call{Name: tool, Arguments: raw})
	if err != nil {
		t.Fatalf("%s as %s: %v", tool, who, err)
	}
	r, ok := res.Custom.(R)
	if !ok {
		t.Fatalf("%s: result %T", tool, res.Custom)
	}
	return r
}

// requireNoProjection fails when any GDS projection is left.
func requireNoProjection(t *testing.T, d neo4j.DriverWithContext) {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, "CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS names",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if names := res.Records[0].Values[0].([]any); len(names) > 0 {
		t.Errorf("projections left in GDS's catalog: %v", names)
	}
}

// TestPageRankEqualsAPowerIteration: each importance tool's scores, for
// every node of alice's graph, equal GDS's PageRank computed in Go on
// the same graph within 1e-6 (weighted for Fn, not for Doc); bob's nodes
// and the relationships to them are not in alice's graph; no projection
// is left.
func TestPageRankEqualsAPowerIteration(t *testing.T) {
	d, e, g := setUp(t)
	for _, tc := range []struct {
		entity   string
		weighted bool
	}{{"Fn", true}, {"Doc", false}} {
		p := g["alice"][tc.entity]
		want := pageRank(len(p.names), p.edges, tc.weighted)
		r := call[*analytics.ImportanceResult](t, e, "alice", analytics.ImportanceToolName(tc.entity), map[string]any{"limit": analytics.MaxLimit})
		if r.Nodes != int64(len(p.names)) || r.Relationships != int64(len(p.edges)) {
			t.Errorf("%s: projected %d nodes, %d relationships; want alice's %d, %d", tc.entity, r.Nodes, r.Relationships, len(p.names), len(p.edges))
		}
		if !r.Converged {
			t.Errorf("%s: PageRank did not converge in %d iterations", tc.entity, r.Iterations)
		}
		if len(r.Ranked) != len(p.names) {
			t.Fatalf("%s: %d ranked, want all %d of alice's", tc.entity, len(r.Ranked), len(p.names))
		}
		worst := 0.0
		for i, rk := range r.Ranked {
			at := slices.Index(p.names, rk.Key.(string))
			if at < 0 {
				t.Fatalf("%s: ranked %v is not alice's", tc.entity, rk.Key)
			}
			if got := rk.Fields["group"]; got != int64(p.group[at]) {
				t.Errorf("%s: %v shows group %v, want %d", tc.entity, rk.Key, got, p.group[at])
			}
			worst = max(worst, math.Abs(rk.Score-want[at]))
			if i > 0 && rk.Score > r.Ranked[i-1].Score {
				t.Errorf("%s: ranked out of order at %d", tc.entity, i)
			}
		}
		if worst > 1e-6 {
			t.Errorf("%s: GDS's PageRank differs from the power iteration by %g (> 1e-6)", tc.entity, worst)
		}
		t.Logf("%s: %d nodes, %d iterations, largest difference from the power iteration %.2g", tc.entity, r.Nodes, r.Iterations, worst)
		// Bob, bound to his own graph, sees his nodes only.
		b := call[*analytics.ImportanceResult](t, e, "bob", analytics.ImportanceToolName(tc.entity), map[string]any{"limit": analytics.MaxLimit})
		if bob := g["bob"][tc.entity]; b.Nodes != int64(len(bob.names)) || b.Relationships != int64(len(bob.edges)) {
			t.Errorf("%s as bob: projected %d nodes, %d relationships; want bob's %d, %d", tc.entity, b.Nodes, b.Relationships, len(bob.names), len(bob.edges))
		}
		for _, rk := range b.Ranked {
			if !strings.HasPrefix(rk.Key.(string), "bob_") {
				t.Errorf("%s as bob: ranked %v", tc.entity, rk.Key)
			}
		}
	}
	requireNoProjection(t, d)
}

// TestClustersModularity: each clusters tool finds alice's planted
// groups and reports her nodes and relationships: its reported modularity (GDS's) equals the modularity computed
// in Go from the returned communities within 1e-9 and exceeds 0.3, and
// every returned member is alice's; no projection is left.
func TestClustersModularity(t *testing.T) {
	d, e, g := setUp(t)
	for _, tc := range []struct {
		entity   string
		weighted bool
	}{{"Fn", true}, {"Doc", false}} {
		p := g["alice"][tc.entity]
		r := call[*analytics.ClustersResult](t, e, "alice", analytics.ClustersToolName(tc.entity),
			map[string]any{"limit": analytics.MaxLimit, "members": analytics.MaxMembers, "min_size": 1})
		community := make([]int, len(p.names))
		for i := range community {
			community[i] = -1
		}
		sizes := 0
		for c, cl := range r.Clusters {
			if int64(len(cl.TopMembers)) != cl.Size {
				t.Fatalf("%s: cluster %d shows %d of its %d members; the test needs them all", tc.entity, c, len(cl.TopMembers), cl.Size)
			}
			for _, m := range cl.TopMembers {
				at := slices.Index(p.names, m.Key.(string))
				if at < 0 {
					t.Fatalf("%s: member %v is not alice's", tc.entity, m.Key)
				}
				community[at] = c
			}
			sizes += int(cl.Size)
		}
		if r.Nodes != int64(len(p.names)) || r.Relationships != int64(len(p.edges)) {
			t.Errorf("%s: projected %d nodes, %d relationships; want alice's %d, %d (each relationship once, though undirected)", tc.entity, r.Nodes, r.Relationships, len(p.names), len(p.edges))
		}
		if sizes != len(p.names) || slices.Contains(community, -1) || r.Total != int64(len(r.Clusters)) {
			t.Fatalf("%s: clusters cover %d of %d nodes (%d of %d clusters returned)", tc.entity, sizes, len(p.names), len(r.Clusters), r.Total)
		}
		want := modularity(community, p.edges, tc.weighted)
		if r.Modularity == nil {
			t.Fatalf("%s: no modularity (notes %q)", tc.entity, r.Notes)
		}
		if math.Abs(*r.Modularity-want) > 1e-9 {
			t.Errorf("%s: GDS reports modularity %.12f, the returned communities have %.12f", tc.entity, *r.Modularity, want)
		}
		if *r.Modularity <= 0.3 {
			t.Errorf("%s: modularity %g on planted groups, want > 0.3", tc.entity, *r.Modularity)
		}
		t.Logf("%s (%s): %d clusters, modularity %.6f (Go %.6f)", tc.entity, r.Algorithm, r.Total, *r.Modularity, want)
	}
	requireNoProjection(t, d)
}

// TestAnalyticsBoundsAndRefusals: a graph above max_nodes is refused
// with a CallError naming the bound; an unknown relationship type is
// refused with the valid ones; none leaves a projection.
func TestAnalyticsBoundsAndRefusals(t *testing.T) {
	d, e, _ := setUp(t)
	neo4jtest.Run(t, d, "UNWIND range(1, 101) AS i CREATE (:Fn {name: 'carol' + i, owner: 'carol'})", nil)
	var ce *tools.CallError
	for _, tc := range []struct {
		who, tool, args, want string
	}{
		{"carol", analytics.ImportanceToolName("Fn"), `{}`, "max_nodes"},
		{"carol", analytics.ClustersToolName("Fn"), `{}`, "max_nodes"},
		{"alice", analytics.ImportanceToolName("Fn"), `{"relationships": ["CITES"]}`, "LINKS"},
	} {
		_, err := e.Execute(tenant.With(context.Background(), tc.who), engine.Call{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
		if !errors.As(err, &ce) || !containsText(ce, tc.want) {
			t.Errorf("%s %s as %s: %v; want a CallError naming %s", tc.tool, tc.args, tc.who, err, tc.want)
		}
	}
	requireNoProjection(t, d)
}

// TestNothingToAnalyseIsAnError: a graph on which PageRank would score
// every node alike and every node would be a cluster of its own (no
// nodes, nodes without relationships of the call's types, weights that
// are all 0) or whose weights GDS cannot use (NaN, infinite) is refused
// by both tools with a CallError that says what is missing in the
// tenant's part of the graph and how to get it; none leaves a projection.
func TestNothingToAnalyseIsAnError(t *testing.T) {
	d, e, _ := setUp(t)
	neo4jtest.Run(t, d, "UNWIND range(1, 6) AS i CREATE (:Fn {name: 'erin' + i, owner: 'erin'})", nil)
	for who, w := range map[string]string{"frank": "0.0", "grace": "0.0/0.0", "heidi": "-1.0/0.0"} {
		neo4jtest.Run(t, d, "UNWIND range(1, 6) AS i CREATE (:Fn {name: $who + i, owner: $who})", map[string]any{"who": who})
		// A chain, its first link weighing w and the others 0.
		neo4jtest.Run(t, d, "MATCH (a:Fn {owner: $who}), (b:Fn {owner: $who}) WHERE b.name = $who + (toInteger(substring(a.name, size($who))) + 1) "+
			"CREATE (a)-[:LINKS {w: CASE a.name WHEN $who + '1' THEN "+w+" ELSE 0.0 END}]->(b)", map[string]any{"who": who})
	}
	noRelationships := []string{"have no LINKS or CALLS relationship between them", "load relationships of type LINKS, CALLS between Fn nodes", "this tenant's part of the graph"}
	for _, tc := range []struct {
		who, entity, args string
		want              []string
	}{
		{"dave", "Doc", `{}`, []string{"there is no Doc node in this tenant's part of the graph", "load Doc nodes and relationships of type CITES between them"}},
		{"erin", "Fn", `{}`, append([]string{"the 6 Fn nodes"}, noRelationships...)},
		{"alice", "Fn", `{"relationships": ["CALLS"]}`, []string{"have no CALLS relationship", "load relationships of type CALLS between Fn nodes", "or leave out relationships to follow LINKS too"}},
		{"frank", "Fn", `{}`, []string{"all 5 LINKS, CALLS relationships between the Fn nodes in this tenant's part of the graph weigh 0 (w)", "give them weights"}},
		{"grace", "Fn", `{}`, []string{"1 of the 5 LINKS, CALLS relationships", "weight (w) that is not a finite number"}},
		{"heidi", "Fn", `{}`, []string{"1 of the 5 LINKS, CALLS relationships", "weight (w) that is not a finite number"}},
	} {
		for _, name := range []string{analytics.ImportanceToolName(tc.entity), analytics.ClustersToolName(tc.entity)} {
			_, err := e.Execute(tenant.With(context.Background(), tc.who), engine.Call{Name: name, Arguments: json.RawMessage(tc.args)})
			var ce *tools.CallError
			if !errors.As(err, &ce) {
				t.Errorf("%s %s as %s: %v; want a CallError", name, tc.args, tc.who, err)
				continue
			}
			for _, want := range tc.want {
				if !strings.Contains(ce.Error(), want) {
					t.Errorf("%s %s as %s: %q\nwant it to say %q", name, tc.args, tc.who, ce.Error(), want)
				}
			}
			t.Logf("%s as %s: %s", name, tc.who, ce.Error())
		}
	}
	requireNoProjection(t, d)
}

// TestClustersSayWhyNone: clusters all below min_size give no cluster
// and a note with the largest size, which as min_size shows them; a
// modularity GDS cannot give (weights adding up to 0) is null with a
// note; every result encodes to JSON.
func TestClustersSayWhyNone(t *testing.T) {
	d, e, g := setUp(t)
	r := call[*analytics.ClustersResult](t, e, "alice", analytics.ClustersToolName("Doc"), map[string]any{"min_size": 1000})
	if len(r.Clusters) != 0 || r.Eligible != 0 || r.Total == 0 || len(r.Notes) != 1 {
		t.Fatalf("min_size 1000: %d clusters of %d (%d eligible), notes %q; want none and one note", len(r.Clusters), r.Total, r.Eligible, r.Notes)
	}
	var largest int
	if _, err := fmt.Sscanf(r.Notes[0][strings.Index(r.Notes[0], "(the largest has "):], "(the largest has %d)", &largest); err != nil || largest < 2 || largest > len(g["alice"]["Doc"].names) {
		t.Fatalf("note %q: no plausible largest size (%v)", r.Notes[0], err)
	}
	if !strings.Contains(r.Notes[0], fmt.Sprintf("none of the %d clusters has 1000 or more members", r.Total)) {
		t.Errorf("note %q", r.Notes[0])
	}
	shown := call[*analytics.ClustersResult](t, e, "alice", analytics.ClustersToolName("Doc"), map[string]any{"min_size": largest})
	if len(shown.Clusters) == 0 || shown.Clusters[0].Size != int64(largest) {
		t.Errorf("min_size %d, the largest size the note gave: %+v", largest, shown.Clusters)
	}
	// ivan's weights add up to 0 (1 and -1): GDS gives the modularity as NaN.
	neo4jtest.Run(t, d, "CREATE (a:Fn {name: 'ivan1', owner: 'ivan'})-[:LINKS {w: 1}]->(:Fn {name: 'ivan2', owner: 'ivan'})-[:LINKS {w: -1}]->(:Fn {name: 'ivan3', owner: 'ivan'})", nil)
	q := call[*analytics.ClustersResult](t, e, "ivan", analytics.ClustersToolName("Fn"), map[string]any{})
	if q.Modularity != nil || !slices.ContainsFunc(q.Notes, func(n string) bool { return strings.Contains(n, "modularity is undefined") }) {
		t.Errorf("weights adding up to 0: modularity %v, notes %q; want null and a note", q.Modularity, q.Notes)
	}
	for _, v := range []any{r, q} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%+v does not encode: %v", v, err)
		}
		t.Logf("%s", b)
	}
	requireNoProjection(t, d)
}

// containsText reports whether the CallError's message or valid choices
// hold s.
func containsText(ce *tools.CallError, s string) bool {
	out, _ := json.Marshal(ce)
	return strings.Contains(string(out), s) || strings.Contains(ce.Error(), s)
}

// TestAFailedCallDropsItsProjection: a call whose algorithm fails after
// the projection was made leaves no projection behind.
func TestAFailedCallDropsItsProjection(t *testing.T) {
	d, _, _ := setUp(t)
	m, err := config.Load("testdata/planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := analytics.New(m, tools.Env{Driver: d, Database: neo4jtest.Database(), Capabilities: tools.Capabilities{GDS: true}})
	existed, err := analytics.FailAfterProjecting(tenant.With(context.Background(), "alice"), a, "Fn")
	if !errors.Is(err, analytics.ErrPlanted) || !existed {
		t.Fatalf("the planted failure: existed=%v err=%v; want the projection made, then the planted error", existed, err)
	}
	requireNoProjection(t, d)
}
