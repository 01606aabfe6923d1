package traverse_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// bobMarker is in every string property of bob's nodes and relationships,
// and in no value of alice's.
const bobMarker = "BOBSECRET"

// testModel is a tenant-scoped model of the two-tenant graph.
func testModel() *model.Model {
	return &model.Model{
		Tenant: &model.Tenant{Field: "user_id"},
		Entities: []*model.Entity{
			{Name: "Person", Relationships: []*model.Relationship{
				{Type: "KNOWS", Targets: []string{"Person"}, Direction: model.Outgoing},
				{Type: "THINKS_ABOUT", Targets: []string{"Concept"}, Direction: model.Outgoing},
			}},
			{Name: "Concept", VectorIndexes: []*model.VectorIndex{{Name: "concept_embedding", Field: "name", Property: "embedding"}}},
		},
	}
}

// people is the number of Person (and of Concept) nodes per tenant.
const people = 6

// twoTenants loads alice's and bob's graphs: people who know the next one
// and think about a concept each, with one KNOWS inside each tenant per
// person, a range index on Person.user_id and a full-text index on names.
// It returns the element ids of bob's nodes and relationships.
func twoTenants(t *testing.T, d neo4j.DriverWithContext) map[string]bool {
	t.Helper()
	for _, q := range []string{
		"CREATE INDEX person_user IF NOT EXISTS FOR (n:Person) ON (n.user_id)",
		"CREATE FULLTEXT INDEX names IF NOT EXISTS FOR (n:Person|Concept) ON EACH [n.name]",
		"CALL db.awaitIndexes()",
	} {
		neo4jtest.Run(t, d, q, nil)
	}
	for _, u := range []string{"alice", "bob"} {
		tag := u
		if u == "bob" {
			tag = bobMarker
		}
		neo4jtest.Run(t, d, `UNWIND range(1, $n) AS i
			CREATE (p:Person {user_id: $u, name: $tag + ' person ' + i, marker: $tag + '-p-' + i, age: 20 + i})
			CREATE (c:Concept {user_id: $u, name: $tag + ' concept ' + i, marker: $tag + '-c-' + i, embedding: [x IN range(1, 32) | toFloat(x) / 32]})
			CREATE (p)-[:THINKS_ABOUT {note: $tag + '-t-' + i}]->(c)`, map[string]any{"u": u, "tag": tag, "n": people})
		neo4jtest.Run(t, d, `MATCH (a:Person {user_id: $u}), (b:Person {user_id: $u})
			WHERE b.age = a.age + 1 CREATE (a)-[:KNOWS {note: $tag + '-k-' + a.age}]->(b)`, map[string]any{"u": u, "tag": tag})
	}
	ids := map[string]bool{}
	ctx := context.Background()
	res, err := neo4j.ExecuteQuery(ctx, d, `MATCH (n {user_id: 'bob'}) OPTIONAL MATCH (n)-[r]-() RETURN elementId(n) AS n, collect(elementId(r)) AS rs`, nil,
		neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range res.Records {
		n, _ := rec.Get("n")
		ids[n.(string)] = true
		rs, _ := rec.Get("rs")
		for _, r := range rs.([]any) {
			ids[r.(string)] = true
		}
	}
	if len(ids) != 2*people+people+people-1 {
		t.Fatalf("bob's graph has %d element ids", len(ids))
	}
	return ids
}

// bobIDs returns the internal ids of some of bob's nodes, for id seeks.
func bobIDs(t *testing.T, d neo4j.DriverWithContext) []int64 {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, `MATCH (n {user_id: 'bob'}) RETURN id(n) AS id ORDER BY id LIMIT 3`, nil,
		neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, rec := range res.Records {
		v, _ := rec.Get("id")
		out = append(out, v.(int64))
	}
	if len(out) == 0 {
		t.Fatal(fmt.Errorf("no bob nodes"))
	}
	return out
}
