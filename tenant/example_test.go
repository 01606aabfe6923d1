package tenant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tenant"
)

// The host binds the tenant it authenticated to the request's context; every
// statement of a tenant-scoped config compares the tenant field with it, and
// no argument of the agent can change it.
func ExampleWith() {
	m, err := config.LoadSources(config.Source{Name: "notes.yaml", Data: []byte(`
tenant: {field: user_id}
entities:
  - name: Note
    unique_field: id
    searchable_fields:
      - {name: id, type: string}
      - {name: user_id, type: string}
      - {name: text, type: string}
`)})
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := tenant.With(context.Background(), "alice")
	st, err := eng.Plan(ctx, engine.Call{
		Name:      "get_entity_by_id",
		Arguments: json.RawMessage(`{"entity_type": "Note", "id_value": "n1"}`),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Cypher)
	params, _ := json.Marshal(st.Params)
	fmt.Println(string(params))
	// Output:
	// MATCH (n:`Note`)
	// WHERE n.`user_id` = $tenant AND n.`id` = $id
	// WITH n
	// LIMIT 1
	// RETURN n.`id` AS id, n {`text`: left(n.`text`, $text_cut)} AS properties, {} AS computed
	// {"id":"n1","tenant":"alice","text_cut":501}
}
