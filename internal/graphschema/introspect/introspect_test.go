package introspect_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

func TestReadListsStoredTypesIndexesAndOnlyTheEndpointsThatExist(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:A:B {s: 'x', i: 1, tags: ['a'], at: datetime()})-[:R {w: 1.5}]->(c:C {s: 2}), (c)-[:R]->(:D), (:A {i: 2.5})`, nil)
	neo4jtest.Run(t, d, `CREATE CONSTRAINT c_s FOR (n:C) REQUIRE n.s IS UNIQUE`, nil)
	neo4jtest.Run(t, d, `CREATE FULLTEXT INDEX a_text FOR (n:A) ON EACH [n.s]`, nil)
	neo4jtest.Run(t, d, `CREATE INDEX e_s FOR (n:E) ON (n.s)`, nil) // E names no node: not a label in use
	ctx := context.Background()
	s, err := introspect.Read(ctx, d, neo4jtest.Database())
	if err != nil {
		t.Fatal(err)
	}
	// The fifth node is scripts/neo4j's mark of a disposable test server.
	if !slices.Equal(s.DataLabels(), []string{"A", "B", "C", "D"}) || !slices.Contains(s.LabelNames(), neo4jtest.MarkerLabel) || s.Labels["A"].Count != 2 || s.Labels["E"] != nil {
		t.Errorf("labels %v, A count %d", s.LabelNames(), s.Labels["A"].Count)
	}
	a := s.Labels["A"].Properties
	for name, want := range map[string][]string{"s": {"String"}, "i": {"Double", "Long"}, "tags": {"StringArray"}, "at": {"DateTime"}} {
		if p := a[name]; p == nil || !slices.Equal(p.Types, want) {
			t.Errorf("A.%s = %+v, want types %v", name, p, want)
		}
	}
	if p := s.Labels["B"].Properties["s"]; p == nil {
		t.Error("B lacks the property of its A:B node")
	}
	r := s.RelTypes["R"]
	// The count store alone would also pair A (R outgoing) with D (R incoming).
	if r == nil || r.Count != 2 || !slices.Equal(r.Endpoints, []introspect.Endpoint{{"A", "C"}, {"B", "C"}, {"C", "D"}}) || r.Connects("A", "D") {
		t.Errorf("R = %+v", r)
	}
	if p := r.Properties["w"]; p == nil || !slices.Equal(p.Types, []string{"Double"}) {
		t.Errorf("R.w = %+v", p)
	}
	if s.UniqueProperty("C") != "s" || s.FindIndex("NODE", "C", []string{"s"}, "RANGE") == nil {
		t.Errorf("constraint or its index missing: %+v %+v", s.Constraints, s.Indexes)
	}
	if ix := s.FindIndex("NODE", "A", []string{"s"}, "FULLTEXT"); ix == nil || ix.Name != "a_text" || s.IndexNamed("a_text") != ix {
		t.Errorf("full-text index: %+v", s.Indexes)
	}
	vals, err := introspect.Sample(ctx, d, neo4jtest.Database(), "A", "i", 10, 10)
	if err != nil || len(vals) != 2 {
		t.Errorf("sample = %v, %v", vals, err)
	}
}
