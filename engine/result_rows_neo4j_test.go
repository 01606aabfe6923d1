package engine_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// goldenGraphs put on the test server the graph of each config whose
// golden cases carry rows.json (see TestGoldenAnswers).
var goldenGraphs = map[string]func(t *testing.T) neo4j.DriverWithContext{
	// net/http as the other tests of Execute read it, and the offline
	// embedder's vectors of the scopes of net/http/header.go in
	// scope_source_embeddings (semantic_search).
	"code-rag.yaml": func(t *testing.T) neo4j.DriverWithContext {
		f := loadNetHTTP(t, engine.Options{})
		vi := f.e.Model().Entity("Scope").VectorIndexes[0]
		var rows []map[string]any
		for _, s := range f.g.Scopes {
			if s.File == "net/http/header.go" {
				vec, err := embedder.Offline{}.Embed(t.Context(), s.Source, vi)
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, map[string]any{"uuid": s.UUID, "vec": vec})
			}
		}
		neo4jtest.Run(t, f.d, "UNWIND $rows AS r MATCH (n:Scope {uuid: r.uuid}) CALL db.create.setNodeVectorProperty(n, $prop, r.vec)",
			map[string]any{"rows": rows, "prop": vi.Property})
		neo4jtest.Run(t, f.d, fmt.Sprintf("CREATE VECTOR INDEX %s IF NOT EXISTS FOR (n:Scope) ON n.%s OPTIONS {indexConfig: {`vector.dimensions`: %d, `vector.similarity_function`: 'cosine'}}",
			vi.Name, vi.Property, vi.Dimensions), nil)
		neo4jtest.Run(t, f.d, "CALL db.awaitIndexes(300)", nil)
		return f.d
	},
	// Four places around Paris.
	"places.yaml": func(t *testing.T) neo4j.DriverWithContext {
		d := neo4jtest.Open(t)
		neo4jtest.Run(t, d, `UNWIND $rows AS r CREATE (:Place {place_id: r[0], name: r[1], kind: r[2], rating: r[3],
			location: point({latitude: r[4], longitude: r[5]})})`, map[string]any{"rows": [][]any{
			{"louvre", "Musée du Louvre", "museum", 4.7, 48.8606, 2.3376},
			{"orsay", "Musée d'Orsay", "museum", 4.8, 48.8600, 2.3266},
			{"luxembourg", "Jardin du Luxembourg", "park", 4.7, 48.8462, 2.3372},
			{"versailles", "Château de Versailles", "museum", 4.6, 48.8049, 2.1204},
		}})
		return d
	},
}

// TestGoldenRowsFromNeo4j runs the statement of every testdata/planner
// case that carries rows.json on the test server, over the graph its
// config describes (goldenGraphs), as run sends it (one row beyond the
// limit, at most RowCap rows). RAGFORGE_UPDATE=1 records the rows in
// rows.json, so the rows TestGoldenAnswers shapes offline are real.
// Otherwise the server's rows must still have the recorded columns, and
// some rows exactly when the recording has some: the values depend on the
// Go release whose net/http the graph is and on the day the test runs.
func TestGoldenRowsFromNeo4j(t *testing.T) {
	byConfig := map[string][]*plancase.Case{}
	for _, c := range plancase.Read(t, "..") {
		if _, ok := golden.File(c.Archive, "rows.json"); ok {
			byConfig[c.Config] = append(byConfig[c.Config], c)
		}
	}
	for _, config := range slices.Sorted(maps.Keys(byConfig)) {
		t.Run(config, func(t *testing.T) {
			load := goldenGraphs[config]
			if load == nil {
				t.Fatalf("cases of %s carry rows.json, and goldenGraphs has no graph for it", config)
			}
			d := load(t)
			for _, c := range byConfig[config] {
				t.Run(c.Name(), func(t *testing.T) { goldenRows(t, c, d) })
			}
		})
	}
}

// goldenRows runs c's statement on d and records or checks its rows.
func goldenRows(t *testing.T, c *plancase.Case, d neo4j.DriverWithContext) {
	e, st := engine.GoldenStatement(t, c, d)
	params := engine.RunParams(st)
	if st.Embed != nil {
		vec, err := embedder.Offline{}.Embed(t.Context(), st.Embed.Text, e.VectorIndex(st.Embed.Index))
		if err != nil {
			t.Fatal(err)
		}
		params[st.Embed.Param] = vec
	}
	res, err := neo4j.ExecuteQuery(t.Context(), d, st.Cypher, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatalf("running the case's statement: %v", err)
	}
	recs := res.Records[:min(len(res.Records), e.RowCap(st))]
	rows, err := engine.EncodeRows(recs)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"rows.json": rows}
	if st.Total != nil {
		// A total runs as a second statement in the page's transaction;
		// its one row is total.json.
		res, err := neo4j.ExecuteQuery(t.Context(), d, st.Total.Cypher, st.Total.Params, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
		if err != nil {
			t.Fatalf("running the case's total: %v", err)
		}
		if outputs["total.json"], err = engine.EncodeRows(res.Records); err != nil {
			t.Fatal(err)
		}
	}
	if golden.Update() {
		golden.CheckArchive(t, c.Path, c.Archive, []string{"rows.json", "total.json"}, outputs)
		return
	}
	if _, ok := golden.File(c.Archive, "total.json"); ok != (st.Total != nil) {
		t.Errorf("the case's statement has a total: %v; it carries total.json: %v (RAGFORGE_UPDATE=1 records it)", st.Total != nil, ok)
	}
	recorded, _ := golden.File(c.Archive, "rows.json")
	want, err := engine.DecodeRows(recorded)
	if err != nil {
		t.Fatal(err)
	}
	if (len(want) == 0) != (len(recs) == 0) {
		t.Errorf("the server returned %d rows, rows.json holds %d", len(recs), len(want))
	}
	if len(want) > 0 && len(recs) > 0 {
		if got := slices.Sorted(slices.Values(recs[0].Keys)); !slices.Equal(got, want[0].Keys) {
			t.Errorf("the server's columns %v, rows.json's %v", got, want[0].Keys)
		}
	}
}
