package explore_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// syntheticMemories is a memory graph of tenants × perTenant nodes (a
// fifth each Person, Concept, Entity, Source and Artifact) with about
// three edges per node, texts drawn from a fixed vocabulary so queries
// match some nodes and not others, and dates over the past year in each
// entity's storage.
func syntheticMemories(tenants, perTenant int) ([]mem, []rel) {
	rng := rand.New(rand.NewPCG(1, 2))
	syll := []string{"ka", "lo", "mi", "ra", "to", "ve", "su", "ne", "po", "di", "an", "el", "or", "us", "ib"}
	vocab := make([]string, 400)
	for i := range vocab {
		vocab[i] = syll[rng.IntN(len(syll))] + syll[rng.IntN(len(syll))] + syll[rng.IntN(len(syll))]
	}
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	when := func() time.Time { return clock.Add(-time.Duration(rng.IntN(365*24)) * time.Hour) }
	var nodes []mem
	var rels []rel
	types := []string{"company", "place", "object", "group", "institution", "product", "technology"}
	for t := range tenants {
		tn := fmt.Sprintf("user%d", t)
		var keys [5][]string
		for i := range perTenant {
			k := fmt.Sprintf("%s_%d", tn, i)
			var n mem
			switch i % 5 {
			case 0:
				name := text(2)
				n = mem{"Person", tn, k, map[string]any{"name": name, "canonical_name": name, "is_owner": i == 0, "notes": text(6), "updated_at": when()}}
			case 1:
				n = mem{"Concept", tn, k, map[string]any{"name": text(2), "description": text(10), "updated_at": when()}}
			case 2:
				n = mem{"Entity", tn, k, map[string]any{"name": text(2), "type": types[i%len(types)], "description": text(10), "updated_at": when()}}
			case 3:
				n = mem{"Source", tn, k, map[string]any{"content_type": "note", "content": text(20), "description": text(10), "updated_at": when().Format(time.RFC3339)}}
			case 4:
				n = mem{"Artifact", tn, k, map[string]any{"content_type": "md_file", "description": text(8), "updated_at": when().UnixMilli()}}
			}
			keys[i%5] = append(keys[i%5], k)
			nodes = append(nodes, n)
		}
		pick := func(s []string) string { return s[rng.IntN(len(s))] }
		owner := keys[0][0]
		for range perTenant / 5 {
			c := pick(keys[1])
			rels = append(rels,
				rel{owner, "thinks_about", c, map[string]any{"mood": "loves", "updated_at": when()}},
				rel{c, "involves", pick(keys[0]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{c, "involves", pick(keys[2]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{c, "relates_to", pick(keys[1]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{pick(keys[3]), "mentions", c, nil},
				rel{c, "produced", pick(keys[4]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{pick(keys[0]), "relates_to", pick(keys[2]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{pick(keys[0]), "has_relationship_with", pick(keys[0]), map[string]any{"closeness": int64(rng.IntN(5) + 1)}},
				rel{pick(keys[2]), "relates_to", pick(keys[2]), nil},
				rel{pick(keys[4]), "sourced_from", pick(keys[3]), nil},
				rel{pick(keys[3]), "mentions", pick(keys[0]), nil},
				rel{pick(keys[3]), "mentions", pick(keys[2]), nil},
				rel{owner, "relates_to", pick(keys[2]), map[string]any{"relevance": int64(rng.IntN(10) + 1)}},
				rel{owner, "has_relationship_with", pick(keys[0]), map[string]any{"closeness": int64(rng.IntN(5) + 1)}},
				rel{c, "involves", pick(keys[0]), nil},
			)
		}
	}
	return nodes, rels
}

// BenchmarkExplore measures one explore call end to end (catalog
// validation, embedding with embedder.Offline, both statements in one
// read transaction on the loopback server, ranking) on a synthetic memory
// graph of 5 tenants × 2,000 nodes with about 3 edges per node:
//
// The median-ms metric is the median call of the last run:
//
//	go test ./explore -run XXX -bench Explore -benchtime 200x
func BenchmarkExplore(b *testing.B) {
	d := neo4jtest.Open(b)
	m := memoryModel(b)
	nodes, rels := syntheticMemories(5, 2000)
	seed(b, d, m, nodes, rels)
	e := newEngine(b, d, m, "")
	// Words of the vocabulary, so each search finds something.
	var desc, name string
	for _, n := range nodes {
		if n.tenant == "user0" && n.label == "Concept" {
			desc, name = n.props["description"].(string), n.props["name"].(string)
			break
		}
	}
	query := strings.Join(strings.Fields(desc)[:4], " ")
	// The name with its second and third letters swapped: found only
	// by edit distance where no full-text index covers the entity.
	rs := []rune(name)
	rs[1], rs[2] = rs[2], rs[1]
	misspelt := string(rs)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"queries_and_names", map[string]any{"queries": []any{map[string]any{"query": query, "threshold": 0.1}}, "text_matches": []any{name, strings.Fields(desc)[5]}}},
		{"two_queries", map[string]any{"queries": []any{map[string]any{"query": query, "threshold": 0.1}, map[string]any{"query": desc, "threshold": 0.1}}}},
		{"names", map[string]any{"text_matches": []any{name, strings.Fields(desc)[5]}}},
		{"misspelt_name", map[string]any{"text_matches": []any{misspelt}}},
	} {
		r := mustRun(b, e, "user0", c.args)
		if len(r.Hits) == 0 {
			b.Fatalf("%s: no hits", c.name)
		}
		b.Run(c.name, func(b *testing.B) {
			took := make([]time.Duration, b.N)
			for i := range b.N {
				start := time.Now()
				mustRun(b, e, "user0", c.args)
				took[i] = time.Since(start)
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[b.N/2].Microseconds())/1000, "median-ms")
		})
	}
}
