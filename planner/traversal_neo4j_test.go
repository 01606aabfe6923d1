package planner_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// walkGraph is a random multigraph of the walks config
// (testdata/planner/configs/walks.yaml): Nodes linked to Nodes (parallel
// links included) and marked with Tags, every relationship with a unique
// eid. The traversal tests load it and search it again in Go.
type walkGraph struct {
	keys  []string
	tag   []bool
	rank  []int64 // -1: no rank
	edges []walkEdge
}

type walkEdge struct {
	from, to int
	typ      string
	eid      int64
}

func newWalkGraph(seed uint64, nodes, tags, links, marks int) *walkGraph {
	r := rand.New(rand.NewPCG(seed, 19))
	g := &walkGraph{}
	for i := range nodes + tags {
		if i < nodes {
			g.keys = append(g.keys, fmt.Sprintf("n%02d", i))
		} else {
			g.keys = append(g.keys, fmt.Sprintf("t%02d", i-nodes))
		}
		g.tag = append(g.tag, i >= nodes)
		rank := int64(r.IntN(10))
		if r.IntN(10) == 0 {
			rank = -1
		}
		g.rank = append(g.rank, rank)
	}
	add := func(from, to int, typ string) {
		g.edges = append(g.edges, walkEdge{from, to, typ, int64(len(g.edges))})
	}
	for len(g.edges) < links {
		a, b := r.IntN(nodes), r.IntN(nodes)
		if a == b {
			continue
		}
		add(a, b, "LINK")
		if r.IntN(8) == 0 {
			add(a, b, "LINK")
		}
	}
	for range marks {
		add(r.IntN(nodes), nodes+r.IntN(tags), "MARK")
	}
	return g
}

func (g *walkGraph) load(t *testing.T, d neo4j.DriverWithContext) {
	t.Helper()
	var nodes, tags []any
	for i, k := range g.keys {
		row := map[string]any{"key": k}
		if g.rank[i] >= 0 {
			row["rank"] = g.rank[i]
		}
		if g.tag[i] {
			tags = append(tags, row)
		} else {
			nodes = append(nodes, row)
		}
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (n:Node) SET n = row", map[string]any{"rows": nodes})
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (n:Tag) SET n = row", map[string]any{"rows": tags})
	for _, typ := range []string{"LINK", "MARK"} {
		var rows []any
		for _, e := range g.edges {
			if e.typ == typ {
				rows = append(rows, map[string]any{"from": g.keys[e.from], "to": g.keys[e.to], "eid": e.eid})
			}
		}
		neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (a {key: row.from}), (b {key: row.to}) CREATE (a)-[:"+typ+" {eid: row.eid}]->(b)", map[string]any{"rows": rows})
	}
}

// next returns the node that edge e leads to from x when followed in dir,
// or -1.
func (e walkEdge) next(x int, dir string) int {
	switch {
	case e.from == x && dir != "incoming":
		return e.to
	case e.to == x && dir != "outgoing":
		return e.from
	}
	return -1
}

// bfs returns the nodes within depth hops of s (s excluded) with their
// shortest depth.
func (g *walkGraph) bfs(s int, types []string, dir string, depth int) map[int]int {
	dist := map[int]int{s: 0}
	frontier := []int{s}
	for d := 1; d <= depth; d++ {
		var next []int
		for _, x := range frontier {
			for _, e := range g.edges {
				if y := e.next(x, dir); y >= 0 && slices.Contains(types, e.typ) {
					if _, ok := dist[y]; !ok {
						dist[y] = d
						next = append(next, y)
					}
				}
			}
		}
		frontier = next
	}
	delete(dist, s)
	return dist
}

// shortestPaths returns the length of the shortest paths from a to b and
// how many there are (as relationship sequences), or -1.
func (g *walkGraph) shortestPaths(a, b int, types []string, dir string) (int, int) {
	dist, ways := map[int]int{a: 0}, map[int]int{a: 1}
	frontier := []int{a}
	for d := 1; len(frontier) > 0; d++ {
		var next []int
		for _, x := range frontier {
			for _, e := range g.edges {
				y := e.next(x, dir)
				if y < 0 || !slices.Contains(types, e.typ) {
					continue
				}
				if _, ok := dist[y]; !ok {
					dist[y] = d
					next = append(next, y)
				}
				if dist[y] == d {
					ways[y] += ways[x]
				}
			}
		}
		if _, ok := dist[b]; ok {
			return dist[b], ways[b]
		}
		frontier = next
	}
	return -1, 0
}

func (g *walkGraph) index(key string) int { return slices.Index(g.keys, key) }

// walk follows a returned path (steps with type and properties.eid) from
// node s and returns where it ends, or an error naming the first step that
// is not a relationship of the graph in the call's direction.
func (g *walkGraph) walk(s int, steps []any, dir string) (int, error) {
	x := s
	for i, st := range steps {
		m := st.(map[string]any)
		eid, _ := m["properties"].(map[string]any)["eid"].(int64)
		if eid < 0 || int(eid) >= len(g.edges) {
			return -1, fmt.Errorf("step %d: no relationship %v", i, m)
		}
		e := g.edges[eid]
		y := e.next(x, dir)
		if y < 0 || e.typ != m["type"] {
			return -1, fmt.Errorf("step %d: %v does not lead on from %s (%s)", i, m, g.keys[x], dir)
		}
		x = y
	}
	return x, nil
}

// exploreCall is one explore_relationships call of the differential test
// and how to answer it in Go.
type exploreCall struct {
	start      string // Node or Tag
	startBelow int64  // starts with rank < startBelow (0: every start)
	types      []string
	dir        string
	depth      int
	target     string // "", Node or Tag
	targetMin  int64  // targets with rank >= targetMin (0: no condition)
	rankDesc   bool
	offset     int
}

func (c exploreCall) args() string {
	a := map[string]any{"start_entity_type": c.start, "relationship_types": c.types, "direction": c.dir, "depth": c.depth, "limit": 50, "offset": c.offset}
	if c.startBelow > 0 {
		a["start_conditions"] = []any{map[string]any{"field": "rank", "operator": "<", "value": c.startBelow}}
	}
	if c.target != "" {
		a["target_entity_type"] = c.target
		if c.targetMin > 0 {
			a["target_conditions"] = []any{map[string]any{"field": "rank", "operator": ">=", "value": c.targetMin}}
		}
		if c.rankDesc {
			a["order_by"] = []any{map[string]any{"field": "rank", "direction": "DESC"}}
		}
	}
	b, _ := json.Marshal(a)
	return string(b)
}

type exploreRow struct {
	from, id string
	depth    int
}

// want answers the call in Go: every target of every start at its
// shortest depth, filtered, sorted and paged like the tool. all is the
// answer before paging.
func (c exploreCall) want(g *walkGraph) (page, all []exploreRow) {
	type hit struct {
		exploreRow
		rank int64
	}
	var hits []hit
	for s := range g.keys {
		if g.tag[s] != (c.start == "Tag") || c.startBelow > 0 && (g.rank[s] < 0 || g.rank[s] >= c.startBelow) {
			continue
		}
		for y, d := range g.bfs(s, c.types, c.dir, c.depth) {
			if c.target != "" && g.tag[y] != (c.target == "Tag") || c.targetMin > 0 && g.rank[y] < c.targetMin {
				continue
			}
			hits = append(hits, hit{exploreRow{g.keys[s], g.keys[y], d}, g.rank[y]})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if c.rankDesc && a.rank != b.rank {
			return a.rank > b.rank // no rank (-1) last
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		if a.from != b.from {
			return a.from < b.from
		}
		return a.id < b.id
	})
	for _, h := range hits {
		all = append(all, h.exploreRow)
	}
	return all[min(c.offset, len(all)):min(c.offset+50, len(all))], all
}

// exploreRows runs a planned explore_relationships statement and checks
// every row's path against the graph: as many steps as the depth, from
// the start to the target, the depth-1 relationship's properties. It
// returns the rows (not the one that only says capped) and whether the
// rows say the traversal was capped.
func exploreRows(t *testing.T, d neo4j.DriverWithContext, g *walkGraph, st *planner.Statement, dir string) ([]exploreRow, bool) {
	t.Helper()
	var out []exploreRow
	capped := false
	for _, r := range runPlanned(t, d, st) {
		c, _ := r.Get(planner.ColCapped)
		capped = capped || c == true
		id, _ := r.Get("id")
		if id == nil {
			continue
		}
		from, _ := r.Get("from_id")
		depth, _ := r.Get("depth")
		path, _ := r.Get("path")
		row := exploreRow{from.(string), id.(string), int(depth.(int64))}
		steps, _ := path.([]any)
		if len(steps) != row.depth {
			t.Errorf("%v: path of %d steps", row, len(steps))
		}
		if end, err := g.walk(g.index(row.from), steps, dir); err != nil || end != g.index(row.id) {
			t.Errorf("%v: path %v does not lead from the start to the target: %v", row, steps, err)
		}
		rel, _ := r.Get("relationship")
		if row.depth == 1 && (len(steps) == 0 || !equalJSON(rel, steps[0].(map[string]any)["properties"])) {
			t.Errorf("%v: relationship %v, path %v", row, rel, steps)
		}
		out = append(out, row)
	}
	return out, capped
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// randomExploreCalls draws n calls over the walks config's choices.
func randomExploreCalls(seed uint64, n int) []exploreCall {
	r := rand.New(rand.NewPCG(seed, 3))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	typeSets := [][]string{{"LINK"}, {"MARK"}, {"LINK", "MARK"}}
	var out []exploreCall
	for range n {
		c := exploreCall{start: pick("Node", "Node", "Tag"), types: typeSets[r.IntN(3)], dir: pick("outgoing", "incoming", "both"), depth: 1 + r.IntN(3), target: pick("", "Node", "Tag")}
		if r.IntN(2) == 0 {
			c.startBelow = int64(1 + r.IntN(9))
		}
		if c.target != "" {
			if r.IntN(2) == 0 {
				c.targetMin = int64(1 + r.IntN(9))
			}
			c.rankDesc = r.IntN(2) == 0
		}
		if r.IntN(3) == 0 {
			c.offset = r.IntN(20)
		}
		out = append(out, c)
	}
	return out
}

// TestExploreMatchesABreadthFirstSearchInGo loads random multigraphs
// (parallel links, two relationship types, nodes without the sorted
// field) and compares explore_relationships with the same search in Go
// for random calls: starts filtered or not, one or two types, every
// direction, depths 1 to 3, target types and conditions, order_by and
// offset. The rows (from_id, id, depth) and their order are the same;
// each path leads from its start to its target in depth steps.
func TestExploreMatchesABreadthFirstSearchInGo(t *testing.T) {
	d := neo4jtest.Open(t)
	f := newFixture(t, "walks.yaml", tools.Capabilities{})
	for seed := range uint64(3) {
		neo4jtest.Run(t, d, "MATCH (n) WHERE NOT n:"+neo4jtest.MarkerLabel+" DETACH DELETE n", nil)
		g := newWalkGraph(seed, 30, 8, 60, 20)
		g.load(t, d)
		tried := 0
		for _, c := range randomExploreCalls(seed, 20) {
			st, err := f.plan(planner.ExploreRelationships, c.args(), nil)
			if err != nil {
				continue // a target type the types cannot reach
			}
			tried++
			got, capped := exploreRows(t, d, g, st, c.dir)
			want, _ := c.want(g)
			if !slices.Equal(got, want) || capped {
				t.Errorf("seed %d %s:\ngot  %v (capped %v)\nwant %v", seed, c.args(), got, capped, want)
			}
		}
		if tried < 10 {
			t.Errorf("seed %d: only %d calls planned", seed, tried)
		}
	}
}

// cappedFixture is the walks fixture with Limits.MaxExpanded set to
// expanded.
func cappedFixture(t *testing.T, expanded int) *fixture {
	t.Helper()
	f := newFixture(t, "walks.yaml", tools.Capabilities{})
	limits := tools.Limits{MaxExpanded: expanded}
	cat, err := planner.Generate(f.m, tools.Options{Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(f.m, planner.Options{Limits: limits, MaxString: engine.DefaultMaxString})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{m: f.m, cat: cat, p: p}
}

// TestExploreStopsAtMaxExpandedWithShortestDepths: with MaxExpanded below
// the number of (start, target) pairs, explore_relationships says it was
// capped and returns at most that many pairs, each at its shortest depth,
// with every pair nearer than the deepest one it returns (the levels it
// finished are whole); at or above the number, it returns them all.
func TestExploreStopsAtMaxExpandedWithShortestDepths(t *testing.T) {
	d := neo4jtest.Open(t)
	g := newWalkGraph(7, 30, 8, 60, 20)
	g.load(t, d)
	c := exploreCall{start: "Node", types: []string{"LINK", "MARK"}, dir: "both", depth: 3}
	_, all := c.want(g)
	if len(all) < 200 {
		t.Fatalf("only %d pairs", len(all))
	}
	for _, k := range []int{1, 5, 20, 45, len(all)} {
		f := cappedFixture(t, k)
		st, err := f.plan(planner.ExploreRelationships, c.args(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, capped := exploreRows(t, d, g, st, c.dir)
		if k == len(all) {
			if capped {
				t.Errorf("max %d, as many as the pairs: capped", k)
			}
			continue
		}
		if !capped || len(got) > k {
			t.Errorf("max %d: %d rows, capped %v; %d pairs in all", k, len(got), capped, len(all))
		}
		deepest := 0
		for _, r := range got {
			if !slices.Contains(all, r) {
				t.Errorf("max %d: %v is not a pair at its shortest depth", k, r)
			}
			deepest = max(deepest, r.depth)
		}
		for _, r := range all {
			if r.depth < deepest && !slices.Contains(got, r) {
				t.Errorf("max %d: %v missing, nearer than the deepest returned (%d)", k, r, deepest)
			}
		}
	}
}

// TestFindPathsMatchesABreadthFirstSearchInGo compares find_paths with a
// search in Go on random multigraphs: for random pairs, types, directions
// and lengths, a path exists within max_length exactly when Go finds one;
// every returned path is a shortest one, from the first entity to the
// second, relationship by relationship; all=true returns every shortest
// path (parallel links make distinct paths) up to the limit. Each call is
// planned twice: with the default limits, where the graph's 90
// relationships are too few to reach them and the statement skips its own
// search, and with MaxExpanded 61, below 2 × 90 + 2 and below 2 × 30 + 2
// (the Nodes at the ends of LINK), so the bounded search runs (and never
// stops on these graphs: findPathRows fails on a capped row).
func TestFindPathsMatchesABreadthFirstSearchInGo(t *testing.T) {
	d := neo4jtest.Open(t)
	fixtures := map[string]*fixture{"skipped": newFixture(t, "walks.yaml", tools.Capabilities{}), "searched": cappedFixture(t, 61)}
	typeSets := [][]string{{"LINK"}, {"LINK", "MARK"}, {"LINK", "MARK"}}
	for seed := range uint64(2) {
		neo4jtest.Run(t, d, "MATCH (n) WHERE NOT n:"+neo4jtest.MarkerLabel+" DETACH DELETE n", nil)
		g := newWalkGraph(seed+10, 30, 8, 70, 20)
		g.load(t, d)
		r := rand.New(rand.NewPCG(seed, 5))
		found := 0
		for range 20 {
			// Mostly pairs that the widest search connects.
			a, b := r.IntN(len(g.keys)), r.IntN(len(g.keys))
			if near := g.bfs(a, []string{"LINK", "MARK"}, "both", 6); len(near) > 0 && r.IntN(4) > 0 {
				keys := slices.Sorted(maps.Keys(near))
				b = keys[r.IntN(len(keys))]
			}
			types := typeSets[r.IntN(3)]
			dir := []string{"outgoing", "incoming", "both", "both"}[r.IntN(4)]
			length := []int{3, 6}[r.IntN(2)]
			all := r.IntN(2) == 0
			args, _ := json.Marshal(map[string]any{"from_entity_type": entityOf(g, a), "from_id": g.keys[a], "to_entity_type": entityOf(g, b), "to_id": g.keys[b],
				"relationship_types": types, "direction": dir, "max_length": length, "all": all, "limit": 50})
			dist, ways := g.shortestPaths(a, b, types, dir)
			want := 0
			if a != b && dist > 0 && dist <= length {
				want = 1
				if all {
					want = min(ways, 50)
				}
				found++
			}
			for name, f := range fixtures {
				st, err := f.plan(planner.FindPaths, string(args), nil)
				if err != nil {
					t.Fatalf("%s: %v", args, err)
				}
				paths := findPathRows(t, d, g, st, a, b, dir)
				if len(paths) != want {
					t.Errorf("%s, %s: %d paths, want %d (distance %d, %d shortest)", name, args, len(paths), want, dist, ways)
				}
				for _, p := range paths {
					if p != dist {
						t.Errorf("%s, %s: a path of length %d, the shortest is %d", name, args, p, dist)
					}
				}
			}
		}
		t.Logf("seed %d: %d of 20 pairs connected", seed, found)
		if found < 6 {
			t.Errorf("seed %d: only %d pairs connected", seed, found)
		}
	}
}

func entityOf(g *walkGraph, i int) string {
	if g.tag[i] {
		return "Tag"
	}
	return "Node"
}

// findPathRows runs a planned find_paths statement, checks that each path
// leads from a to b through its nodes and relationships, that no two
// paths are the same and that none says capped, and returns their
// lengths.
func findPathRows(t *testing.T, d neo4j.DriverWithContext, g *walkGraph, st *planner.Statement, a, b int, dir string) []int {
	t.Helper()
	var lengths []int
	seen := map[string]bool{}
	for _, r := range runPlanned(t, d, st) {
		if c, _ := r.Get(planner.ColCapped); c == true {
			t.Errorf("capped, though the limits hold the whole search")
		}
		nodes, _ := r.Get("nodes")
		rels, _ := r.Get("relationships")
		length, _ := r.Get("length")
		steps, _ := rels.([]any)
		end, err := g.walk(a, steps, dir)
		if err != nil || end != b {
			t.Errorf("path %v does not lead from %s to %s: %v", steps, g.keys[a], g.keys[b], err)
		}
		ns, _ := nodes.([]any)
		if len(ns) != len(steps)+1 || int(length.(int64)) != len(steps) {
			t.Errorf("%d nodes, %d relationships, length %v", len(ns), len(steps), length)
		}
		key := fmt.Sprint(steps)
		if seen[key] {
			t.Errorf("path %v twice", steps)
		}
		seen[key] = true
		lengths = append(lengths, len(steps))
	}
	return lengths
}

// TestFindPathsSaysWhenMaxExpandedStoppedTheSearch: with MaxExpanded
// smaller than the search needs, find_paths returns no path and says it
// was capped, or the shortest path when the ends met first; it never
// returns a longer one.
func TestFindPathsSaysWhenMaxExpandedStoppedTheSearch(t *testing.T) {
	d := neo4jtest.Open(t)
	g := newWalkGraph(11, 30, 8, 45, 20)
	g.load(t, d)
	f := cappedFixture(t, 3)
	cappedCalls := 0
	for a := range 30 {
		b := (a + 7) % 30
		dist, _ := g.shortestPaths(a, b, []string{"LINK"}, "both")
		args := fmt.Sprintf(`{"from_entity_type":"Node","from_id":%q,"to_entity_type":"Node","to_id":%q,"relationship_types":["LINK"],"max_length":6}`, g.keys[a], g.keys[b])
		st, err := f.plan(planner.FindPaths, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := runPlanned(t, d, st)
		var lengths []int
		capped := false
		for _, r := range rows {
			c, _ := r.Get(planner.ColCapped)
			capped = capped || c == true
			if l, _ := r.Get("length"); l != nil {
				lengths = append(lengths, int(l.(int64)))
			}
		}
		switch {
		case len(lengths) > 0 && (capped || lengths[0] != dist):
			t.Errorf("%s: lengths %v, capped %v; distance %d", args, lengths, capped, dist)
		case len(lengths) == 0 && dist > 0 && dist <= 6 && !capped:
			t.Errorf("%s: no path and not capped; distance %d", args, dist)
		case len(lengths) == 0 && capped && len(rows) != 1:
			t.Errorf("%s: capped with %d rows, want the one that says so", args, len(rows))
		}
		if capped {
			cappedCalls++
		}
	}
	if cappedCalls == 0 {
		t.Error("no search was capped")
	}
}

// TestFindPathsAllStopsAtTheLimitAmongMillionsOfShortestPaths: between
// the ends of five layers of 30 nodes, each linked to every node of the
// next, there are 30^5 = 24,300,000 shortest paths of length 6;
// find_paths with all returns the first 50 of them, distinct and
// shortest, without enumerating the rest.
func TestFindPathsAllStopsAtTheLimitAmongMillionsOfShortestPaths(t *testing.T) {
	d := neo4jtest.Open(t)
	g := &walkGraph{}
	node := func(key string) int {
		g.keys, g.tag, g.rank = append(g.keys, key), append(g.tag, false), append(g.rank, 0)
		return len(g.keys) - 1
	}
	link := func(a, b int) { g.edges = append(g.edges, walkEdge{a, b, "LINK", int64(len(g.edges))}) }
	prev := []int{node("src")}
	for l := range 5 {
		var layer []int
		for i := range 30 {
			layer = append(layer, node(fmt.Sprintf("L%d_%02d", l, i)))
		}
		for _, a := range prev {
			for _, b := range layer {
				link(a, b)
			}
		}
		prev = layer
	}
	dst := node("dst")
	for _, a := range prev {
		link(a, dst)
	}
	g.load(t, d)
	f := newFixture(t, "walks.yaml", tools.Capabilities{})
	st, err := f.plan(planner.FindPaths, `{"from_entity_type":"Node","from_id":"src","to_entity_type":"Node","to_id":"dst","relationship_types":["LINK"],"direction":"outgoing","max_length":6,"all":true,"limit":50}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	lengths := findPathRows(t, d, g, st, 0, dst, "outgoing")
	took := time.Since(start)
	if len(lengths) != 50 || slices.ContainsFunc(lengths, func(l int) bool { return l != 6 }) {
		t.Errorf("lengths %v, want 50 of 6", lengths)
	}
	t.Logf("50 of 24,300,000 shortest paths in %v (the statement's first run)", took)
	if took > 5*time.Second {
		t.Errorf("%v for 50 paths", took)
	}
}

// TestExploreStopsAtTheLevelThatFillsThePage: nearest first, once the
// levels done hold the page (offset + limit targets), no deeper target can
// enter it, so the deeper levels read nothing (the depth-3 statement reads
// no more db hits than the depth-1 one, which streams its one level
// rather than listing it) and the page is Go's. A page past the
// first level, or an order_by that may pull deeper targets forward, makes
// the traversal go on; every page is still Go's.
func TestExploreStopsAtTheLevelThatFillsThePage(t *testing.T) {
	d := neo4jtest.Open(t)
	f := newFixture(t, "walks.yaml", tools.Capabilities{})
	g := newWalkGraph(7, 30, 8, 60, 20)
	g.load(t, d)
	first := 0 // targets at depth 1
	_, all := exploreCall{start: "Node", types: []string{"LINK", "MARK"}, dir: "both", depth: 3}.want(g)
	for _, r := range all {
		if r.depth == 1 {
			first++
		}
	}
	if first <= 50 || first >= len(all) {
		t.Fatalf("%d targets at depth 1 of %d: want more than a page and fewer than all", first, len(all))
	}
	hits := func(c exploreCall) int64 {
		st, err := f.plan(planner.ExploreRelationships, c.args(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, capped := exploreRows(t, d, g, st, c.dir)
		if want, _ := c.want(g); !slices.Equal(got, want) || capped {
			t.Errorf("%s:\ngot  %v (capped %v)\nwant %v", c.args(), got, capped, want)
		}
		_, n := profile(t, d, st)
		return n
	}
	for _, c := range []struct {
		offset   int
		target   string
		rankDesc bool
		stops    bool
	}{{0, "", false, true}, {first - 50, "", false, true}, {first - 49, "", false, false}, {0, "Node", true, false}} {
		call := exploreCall{start: "Node", types: []string{"LINK", "MARK"}, dir: "both", target: c.target, rankDesc: c.rankDesc, offset: c.offset}
		call.depth = 1
		one := hits(call)
		call.depth = 3
		three := hits(call)
		if (three <= one) != c.stops {
			t.Errorf("offset %d, order by rank %v: %d db hits at depth 1, %d at depth 3; want the deeper levels to read nothing: %v", c.offset, c.rankDesc, one, three, c.stops)
		}
	}
}
