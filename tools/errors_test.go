package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/tools"
)

// TestFailBuildsTheOneProblemErrorEveryHandlerReturns: the message is
// formatted, the valid choices listed, and a message passed as "%s" keeps
// its % signs (Neo4j's "x % 0" stays as Neo4j wrote it).
func TestFailBuildsTheOneProblemErrorEveryHandlerReturns(t *testing.T) {
	err := tools.Fail("query_entities", "/entity_type", []string{"File", "Package"}, "%q is not an entity", "Fil")
	if got, want := err.Error(), `invalid call to query_entities: /entity_type: "Fil" is not an entity (valid: File, Package)`; got != want {
		t.Errorf("Error() = %s\nwant      %s", got, want)
	}
	raw, _ := json.Marshal(tools.Fail("run_cypher", "/query", nil, "%s", "Neo4j says: x % 0 is / by zero"))
	if got, want := string(raw), `{"tool":"run_cypher","problems":[{"path":"/query","message":"Neo4j says: x % 0 is / by zero"}]}`; got != want {
		t.Errorf("JSON = %s\nwant   %s", got, want)
	}
}
