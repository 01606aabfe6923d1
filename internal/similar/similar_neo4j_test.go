package similar_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/similar"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// The test graph: alice's items, tags and citations; bob's item b1 is
// tagged with alice's t1 and cites i1, which must change nothing alice
// sees.
var (
	tagged = map[string][]string{
		"i1": {"t1", "t2", "t3"}, "i2": {"t1", "t2"}, "i3": {"t1", "t4"}, "i4": {"t2", "t3", "t5"},
		"i5": {"t5"}, "i6": {"t6"}, "i7": {"t1", "t2", "t3", "t4", "t5"}, "i8": {"t3"},
		"b1": {"t1"},
	}
	cites   = [][2]string{{"i2", "i3"}, {"i5", "i1"}, {"i6", "i2"}, {"i8", "i4"}, {"b1", "i1"}}
	vectors = map[string][]float64{
		"i1": {1, 0.2, 0, 0.1}, "i2": {0.9, 0.3, 0.1, 0}, "i3": {0.1, 1, 0.2, 0}, "i4": {0.7, 0, 0.7, 0.1},
		"i5": {0, 0.1, 1, 0.3}, "i6": {0.5, 0.5, 0.5, 0.6}, "i7": {0.2, 0.1, 0.1, 1}, "b1": {1, 0.2, 0, 0.1},
		// i8 has no vector.
	}
)

// vector is the item's vector, nil (no property) for none.
func vector(key string) any {
	if v, ok := vectors[key]; ok {
		return v
	}
	return nil
}

func owner(key string) string {
	if strings.HasPrefix(key, "b") {
		return "bob"
	}
	return "alice"
}

// neighbours returns alice's neighbour sets over TAGGED and CITES, either
// direction, as Go sees the graph.
func neighbours() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	link := func(a, b string) {
		if owner(a) != "alice" || owner(b) != "alice" {
			return
		}
		for _, p := range [][2]string{{a, b}, {b, a}} {
			if out[p[0]] == nil {
				out[p[0]] = map[string]bool{}
			}
			out[p[0]][p[1]] = true
		}
	}
	for item, tags := range tagged {
		for _, t := range tags {
			link(item, t)
		}
	}
	for _, c := range cites {
		link(c[0], c[1])
	}
	return out
}

type ranked struct {
	key   string
	score float64
}

// expected ranks alice's other items for n in Go: the mode's score, ties
// by key, top k.
func expected(n, mode, measure string, k int) []ranked {
	nb := neighbours()
	structural := map[string]float64{}
	for m := range tagged {
		if m == n || owner(m) != "alice" {
			continue
		}
		shared, union := 0, len(nb[n])
		aa := 0.0
		for z := range nb[m] {
			if nb[n][z] {
				shared++
				aa += 1 / math.Log(float64(len(nb[z])))
			} else {
				union++
			}
		}
		if shared == 0 {
			continue
		}
		structural[m] = float64(shared) / float64(union)
		if measure == similar.AdamicAdar {
			structural[m] = aa
		}
	}
	semantic := map[string]float64{}
	for m, v := range vectors {
		if m == n || owner(m) != "alice" || vectors[n] == nil {
			continue
		}
		var dot, a, b float64
		for i := range v {
			dot += v[i] * vectors[n][i]
			a += v[i] * v[i]
			b += vectors[n][i] * vectors[n][i]
		}
		semantic[m] = (1 + dot/math.Sqrt(a*b)) / 2
	}
	best := func(s map[string]float64) float64 {
		out := 0.0
		for _, v := range s {
			out = max(out, v)
		}
		return out
	}
	var out []ranked
	switch mode {
	case similar.Semantic:
		for m, s := range semantic {
			out = append(out, ranked{m, s})
		}
	case similar.Structural:
		for m, s := range structural {
			out = append(out, ranked{m, s})
		}
	default:
		bs, bt := best(semantic), best(structural)
		keys := map[string]bool{}
		for m := range semantic {
			keys[m] = true
		}
		for m := range structural {
			keys[m] = true
		}
		scaled := func(v, best float64) float64 {
			if best == 0 {
				return 0
			}
			return v / best
		}
		for m := range keys {
			out = append(out, ranked{m, 0.5*scaled(semantic[m], bs) + 0.5*scaled(structural[m], bt)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].key < out[j].key
	})
	return out[:min(k, len(out))]
}

// setUp loads the graph and returns an engine over it.
func setUp(t *testing.T) *engine.Engine {
	t.Helper()
	return newEngine(t)(nil)
}

// newEngine loads the graph and returns a function that builds an engine
// over it with an embedder (none when nil).
func newEngine(t *testing.T) func(engine.Embedder) *engine.Engine {
	t.Helper()
	d := neo4jtest.Open(t)
	m, err := config.Load("testdata/items.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	for item, tags := range tagged {
		neo4jtest.Run(t, d, `MERGE (i:Item {key: $item, user_id: $user}) SET i.title = 'item ' + $item
WITH i CALL (i) { WITH i WHERE $vector IS NOT NULL SET i.embedding = $vector }
WITH i UNWIND $tags AS tag MERGE (t:Tag {name: tag, user_id: CASE WHEN tag STARTS WITH 'b' THEN 'bob' ELSE 'alice' END}) MERGE (i)-[:TAGGED]->(t)`,
			map[string]any{"item": item, "user": owner(item), "vector": vector(item), "tags": tags})
	}
	for _, c := range cites {
		neo4jtest.Run(t, d, `MATCH (a:Item {key: $a}), (b:Item {key: $b}) CREATE (a)-[:CITES]->(b)`, map[string]any{"a": c[0], "b": c[1]})
	}
	return func(emb engine.Embedder) *engine.Engine {
		e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Embedder: emb})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

func call(t *testing.T, e *engine.Engine, user string, args map[string]any) (*similar.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := e.Execute(tenant.With(context.Background(), user), engine.Call{Name: "find_similar_item", Arguments: raw})
	if err != nil {
		return nil, err
	}
	return res.Custom.(*similar.Result), nil
}

// TestFindSimilarRanksAsGoComputesIt compares every mode and measure, for
// every item of alice, with the ranking computed in Go on the same graph.
func TestFindSimilarRanksAsGoComputesIt(t *testing.T) {
	e := setUp(t)
	cases := []struct{ mode, measure string }{
		{similar.Semantic, ""}, {similar.Structural, similar.Jaccard}, {similar.Structural, similar.AdamicAdar}, {similar.Hybrid, similar.Jaccard},
	}
	for _, c := range cases {
		for n := range tagged {
			if owner(n) != "alice" || (c.mode == similar.Semantic && vectors[n] == nil) {
				continue
			}
			args := map[string]any{"id": n, "mode": c.mode, "top_k": 5}
			if c.measure != "" {
				args["measure"] = c.measure
			}
			res, err := call(t, e, "alice", args)
			if err != nil {
				t.Fatalf("%s %s %s: %v", n, c.mode, c.measure, err)
			}
			want := expected(n, c.mode, c.measure, 5)
			var got []ranked
			for _, h := range res.Similar {
				got = append(got, ranked{h.ID.(string), h.Score})
			}
			same := len(got) == len(want)
			for i := 0; same && i < len(got); i++ {
				same = got[i].key == want[i].key && math.Abs(got[i].score-want[i].score) < 1e-5
			}
			if !same {
				t.Errorf("%s %s %s:\n got %v\nwant %v", n, c.mode, c.measure, got, want)
			}
		}
	}
}

// TestFindSimilarSaysWhatItCannotDo checks the notes and errors: an item
// without a vector, an id of another tenant, a mode not offered.
func TestFindSimilarSaysWhatItCannotDo(t *testing.T) {
	e := setUp(t)
	res, err := call(t, e, "alice", map[string]any{"id": "i8", "mode": "semantic"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Similar) != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "no stored vector in index item_embeddings") {
		t.Errorf("i8 semantic: %+v", res)
	}
	// Hybrid still answers by structure.
	res, err = call(t, e, "alice", map[string]any{"id": "i8"})
	if err != nil || res.Mode != "hybrid" || len(res.Similar) == 0 || res.Similar[0].ID != expected("i8", similar.Structural, similar.Jaccard, 1)[0].key {
		t.Errorf("i8 hybrid: %+v %v", res, err)
	}
	_, err = call(t, e, "bob", map[string]any{"id": "i1"})
	var ce *tools.CallError
	if !asCallError(err, &ce) || !strings.Contains(err.Error(), "no Item has key i1") {
		t.Errorf("bob asking for alice's i1: %v", err)
	}
	res, err = call(t, e, "bob", map[string]any{"id": "b1", "mode": "structural"})
	if err != nil || len(res.Similar) != 0 {
		t.Errorf("bob's b1 shares nothing with bob's items, yet: %+v %v", res, err)
	}
	_, err = call(t, e, "alice", map[string]any{"id": "i1", "mode": "magic"})
	if err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("mode magic: %v", err)
	}
	if !slices.Contains([]string{"semantic", "structural", "hybrid"}, res.Mode) {
		t.Errorf("mode %q", res.Mode)
	}
}

// TestFindSimilarSaysTheOfflineVectorsAreLexical: on a server whose
// embedder is the offline one, the tool's description and every answer
// that compares vectors (semantic, hybrid) say they are lexical, not
// semantic, and how to serve a real model; a structural answer does not,
// nor does any answer without that embedder.
func TestFindSimilarSaysTheOfflineVectorsAreLexical(t *testing.T) {
	lexical := embedder.Caveat(embedder.Offline{})
	build := newEngine(t)
	e := build(embedder.Offline{})
	if d := e.Tools().Tool("find_similar_item").Description; !strings.Contains(d, lexical) {
		t.Errorf("description %q does not say %q", d, lexical)
	}
	for mode, want := range map[string]bool{"semantic": true, "hybrid": true, "structural": false} {
		res, err := call(t, e, "alice", map[string]any{"id": "i1", "mode": mode})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(res.Notes, lexical) != want {
			t.Errorf("%s: notes %q; want the lexical note: %v", mode, res.Notes, want)
		}
	}
	plain := build(nil)
	if d := plain.Tools().Tool("find_similar_item").Description; strings.Contains(d, "lexical") {
		t.Errorf("without the offline embedder, the description says %q", d)
	}
	res, err := call(t, plain, "alice", map[string]any{"id": "i1", "mode": "semantic"})
	if err != nil || slices.Contains(res.Notes, lexical) {
		t.Errorf("without the offline embedder: notes %q, %v", res.Notes, err)
	}
}
