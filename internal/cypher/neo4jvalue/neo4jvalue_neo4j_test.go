package neo4jvalue_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// read runs a one-column query on d and returns the value of its row.
func read(t *testing.T, d neo4j.DriverWithContext, q string) any {
	t.Helper()
	res, err := neo4j.ExecuteQuery(t.Context(), d, q, nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(res.Records) != 1 || len(res.Records[0].Values) != 1 {
		t.Fatalf("%s: want one row of one column, got %v", q, res.Records)
	}
	return res.Records[0].Values[0]
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%#v does not marshal: %v", v, err)
	}
	return string(b)
}

// TestEveryKindOfValueNeo4jReturnsConvertsToOneJSONForm returns each kind
// of value from Neo4j (a RETURN of each, nodes, relationships and paths
// from a small graph) and checks the JSON every tool result shows for it.
func TestEveryKindOfValueNeo4jReturnsConvertsToOneJSONForm(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:Thing {name: 'a', born: date('2024-03-01'), score: 1.0/0.0, tags: ['x', 'y']})-[:KNOWS {since: 2020, weight: 0.0/0.0}]->(:Thing {name: 'b'})", nil)
	const path = `{"length":1,"nodes":[{"born":"2024-03-01","name":"a","score":"Infinity","tags":["x","y"]},{"name":"b"}],"relationships":[{"properties":{"since":2020,"weight":"NaN"},"type":"KNOWS"}]}`
	for _, c := range []struct{ kind, query, want string }{
		{"null", "RETURN null", `null`},
		{"boolean", "RETURN true", `true`},
		{"integer", "RETURN 9223372036854775807", `9223372036854775807`},
		{"float", "RETURN 1.5", `1.5`},
		{"NaN", "RETURN 0.0/0.0", `"NaN"`},
		{"+Inf", "RETURN 1.0/0.0", `"Infinity"`},
		{"-Inf", "RETURN -1.0/0.0", `"-Infinity"`},
		{"Cypher's own words for them", "RETURN [toString(0.0/0.0), toString(1.0/0.0), toString(-1.0/0.0)]", `["NaN","Infinity","-Infinity"]`},
		{"string", "RETURN 'héllo'", `"héllo"`},
		{"list", "RETURN [1, 'a', null, 2.5, [1.0/0.0]]", `[1,"a",null,2.5,["Infinity"]]`},
		{"map", "RETURN {a: 1, b: [date('2024-03-01')], c: {d: -1.0/0.0}}", `{"a":1,"b":["2024-03-01"],"c":{"d":"-Infinity"}}`},
		{"date", "RETURN date('2024-03-01')", `"2024-03-01"`},
		{"datetime with an offset", "RETURN datetime('2024-03-01T12:30:00.0000005+01:00')", `"2024-03-01T12:30:00.0000005+01:00"`},
		{"datetime in a zone", "RETURN datetime('2024-07-01T12:30:00[Europe/Paris]')", `"2024-07-01T12:30:00+02:00"`},
		{"datetime in UTC", "RETURN datetime('2024-03-01T12:30:00Z')", `"2024-03-01T12:30:00Z"`},
		{"local datetime", "RETURN localdatetime('2024-03-01T12:30:00.5')", `"2024-03-01T12:30:00.5"`},
		{"local time", "RETURN localtime('12:30:00.25')", `"12:30:00.25"`},
		{"time", "RETURN time('12:30:00+02:00')", `"12:30:00+02:00"`},
		{"duration", "RETURN duration({months: 14, days: 2, seconds: 3})", `"P14M2DT3S"`},
		{"WGS-84 point", "RETURN point({latitude: 48.5, longitude: 2.25})", `{"latitude":48.5,"longitude":2.25}`},
		{"WGS-84 3D point", "RETURN point({latitude: 48.5, longitude: 2.25, height: 35})", `{"height":35,"latitude":48.5,"longitude":2.25}`},
		{"cartesian point", "RETURN point({x: 1, y: 2})", `{"srid":7203,"x":1,"y":2}`},
		{"cartesian 3D point", "RETURN point({x: 1, y: 2, z: 3})", `{"srid":9157,"x":1,"y":2,"z":3}`},
		{"node", "MATCH (n:Thing {name: 'a'}) RETURN n", `{"born":"2024-03-01","name":"a","score":"Infinity","tags":["x","y"]}`},
		{"relationship", "MATCH ()-[r:KNOWS]->() RETURN r", `{"since":2020,"weight":"NaN"}`},
		{"path", "MATCH p = (:Thing)-[:KNOWS]->() RETURN p", path},
		{"list of paths and nodes", "MATCH p = (a:Thing)-[:KNOWS]->(b) RETURN [p, b]", `[` + path + `,{"name":"b"}]`},
		{"31 numbers", "RETURN [x IN range(1, 31) | 0]", `[` + strings.TrimSuffix(strings.Repeat("0,", 31), ",") + `]`},
	} {
		t.Run(c.kind, func(t *testing.T) {
			v := read(t, d, c.query)
			var conv neo4jvalue.Converter
			got, ok := conv.Value("v", v)
			if !ok || marshal(t, got) != c.want {
				t.Errorf("%s\n got %s (kept %v)\nwant %s", c.query, marshal(t, got), ok, c.want)
			}
			if plain := marshal(t, neo4jvalue.Value(v)); plain != c.want {
				t.Errorf("%s: Value gives %s, want %s", c.query, plain, c.want)
			}
			if n := conv.Notes(); n != nil {
				t.Errorf("%s: notes %q for a value left whole", c.query, n)
			}
		})
	}
}

// TestAConverterLeavesOutEmbeddingsAndHiddenPropertiesAndCutsLongText: a
// result's converter leaves out lists of 32 numbers or more wherever they
// are, the model's vector-index properties and the hidden tenant field of
// nodes, cuts long strings, and its notes name what it left out and cut;
// Value, the plain conversion, keeps everything.
func TestAConverterLeavesOutEmbeddingsAndHiddenPropertiesAndCutsLongText(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:Doc {user_id: 'alice', title: 'a rather long title', emb: [1.0, 2.0], vector: [x IN range(1, 32) | 0.5]})", nil)
	v := read(t, d, "MATCH (n:Doc) RETURN {node: n, raw: [x IN range(1, 32) | x], short: 'ok'}")
	c := &neo4jvalue.Converter{MaxString: 8, Hidden: []string{"user_id"}, Vectors: []string{"emb"}}
	got, ok := c.Value("row", v)
	if want := `{"node":{"title":"a rather…"},"short":"ok"}`; !ok || marshal(t, got) != want {
		t.Errorf("got %s, want %s", marshal(t, got), want)
	}
	want := []string{"long text shortened to 8 characters in title (searches still match the whole text)", "embedding vectors left out: emb, raw, vector"}
	if n := c.Notes(); strings.Join(n, "|") != strings.Join(want, "|") {
		t.Errorf("notes %q, want %q", n, want)
	}
	if _, ok := c.Value("column", read(t, d, "RETURN [x IN range(1, 32) | 1.5]")); ok {
		t.Error("a column holding an embedding was kept")
	}
	c.Reset()
	if n := c.Notes(); n != nil {
		t.Errorf("notes %q after Reset", n)
	}
	if plain := marshal(t, neo4jvalue.Value(v)); !strings.Contains(plain, `"user_id":"alice"`) || !strings.Contains(plain, `"emb":[1,2]`) || !strings.Contains(plain, `"raw":[1,2,3`) {
		t.Errorf("Value left something out: %s", plain)
	}
}

// A model's converter leaves out each vector and the text hash `embed`
// stores beside it, for an index with a named property and one with the
// default property alike; other fields stay.
func TestAModelsConverterLeavesOutVectorsAndTheirTextHashes(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:Doc {title: 't', emb: [1.0, 2.0], emb_text_hash: 'ab12', embedding: [3.0], embedding_text_hash: 'cd34'})", nil)
	m := &model.Model{Entities: []*model.Entity{{Name: "Doc", VectorIndexes: []*model.VectorIndex{{Name: "a", Field: "title", Property: "emb"}, {Name: "b", Field: "title"}}}}}
	c := neo4jvalue.New(t.Context(), m, 0)
	got, _ := c.Value("n", read(t, d, "MATCH (n:Doc) RETURN n"))
	if want := `{"title":"t"}`; marshal(t, got) != want {
		t.Errorf("got %s, want %s", marshal(t, got), want)
	}
	if want := []string{"embedding vectors left out: emb, embedding"}; strings.Join(c.Notes(), "|") != strings.Join(want, "|") {
		t.Errorf("notes %q, want %q", c.Notes(), want)
	}
}
