package engine

import (
	"context"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// apocFunctions are the APOC functions the fuzzy mode's Cypher calls.
var apocFunctions = []string{"apoc.text.distance", "apoc.text.levenshteinSimilarity", "apoc.text.split"}

// gdsFunction is the function whose presence says Graph Data Science is
// installed.
const gdsFunction = "gds.version"

// DetectCapabilities asks the server what the catalog may offer: FullText
// when every full-text index the model declares exists and is ONLINE (SHOW
// FULLTEXT INDEXES; true when the model declares none), APOC when the APOC
// text functions fuzzy matching uses are installed (SHOW FUNCTIONS), GDS
// when Graph Data Science is (its gds.version function). A mode or tool
// the server cannot run is then not offered, rather than failing when
// called.
func DetectCapabilities(ctx context.Context, d neo4j.DriverWithContext, database string, m *model.Model) (tools.Capabilities, error) {
	var caps tools.Capabilities
	res, err := neo4jtx.Query(ctx, d, database, neo4j.AccessModeRead, "SHOW FULLTEXT INDEXES YIELD name, state RETURN name, state", nil)
	if err != nil {
		return caps, err
	}
	online := map[string]bool{}
	for _, r := range res {
		name, _ := r.Get("name")
		state, _ := r.Get("state")
		if s, _ := name.(string); s != "" && state == "ONLINE" {
			online[s] = true
		}
	}
	caps.FullText = true
	for _, e := range m.Entities {
		if e.FullTextIndex != nil && !online[e.FullTextIndex.Name] {
			caps.FullText = false
		}
	}
	res, err = neo4jtx.Query(ctx, d, database, neo4j.AccessModeRead, "SHOW FUNCTIONS YIELD name WHERE name IN $names RETURN collect(name) AS names",
		map[string]any{"names": append([]string{gdsFunction}, apocFunctions...)})
	if err != nil {
		return caps, err
	}
	if len(res) == 1 {
		names, _ := res[0].Get("names")
		list, _ := names.([]any)
		caps.GDS = slices.Contains(list, any(gdsFunction))
		caps.APOC = true
		for _, f := range apocFunctions {
			if !slices.Contains(list, any(f)) {
				caps.APOC = false
			}
		}
	}
	return caps, nil
}
