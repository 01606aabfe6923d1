package computed_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
)

// TestRelationshipFieldsEvaluateTheirEnds: a relationship's computed field
// reads its properties under their names and its ends' fields under
// "from.x" and "to.x", text numbers and "NULL" markers as the Cypher reads
// them; an incoming declaration's from is its target.
func TestRelationshipFieldsEvaluateTheirEnds(t *testing.T) {
	m, err := config.LoadSources(config.Source{Name: "rel.yaml", Data: []byte(`
entities:
  - name: Product
    unique_field: productID
    searchable_fields:
      - {name: productID, type: string}
      - {name: unitPrice, type: number}
    relationships:
      - type: ORDERS
        target: Order
        direction: incoming
        properties:
          - {name: quantity, type: integer}
          - {name: unitPrice, type: number, stored_as: text, null_values: ["NULL"]}
        computed_fields:
          - {name: value, type: number, expression: quantity * unitPrice}
          - {name: saved, type: number, expression: quantity * (to.unitPrice - unitPrice)}
          - {name: late, type: boolean, expression: from.priority and value > 100}
  - name: Order
    unique_field: orderID
    searchable_fields:
      - {name: orderID, type: string}
      - {name: priority, type: boolean}
`)})
	if err != nil {
		t.Fatal(err)
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	rel := cm.Relationship("ORDERS")
	for _, c := range []struct {
		field string
		props map[string]any
		want  any
	}{
		{"value", map[string]any{"quantity": int64(3), "unitPrice": "14.5"}, 43.5},
		{"value", map[string]any{"quantity": int64(3), "unitPrice": "NULL"}, nil},
		{"saved", map[string]any{"quantity": int64(2), "unitPrice": "14.5", "to.unitPrice": 18.0}, 7.0},
		{"late", map[string]any{"quantity": int64(10), "unitPrice": "14.5", "from.priority": true}, true},
		{"late", map[string]any{"quantity": int64(10), "unitPrice": "14.5", "from.priority": false}, false},
	} {
		got, err := rel.Field(c.field).Eval(c.props)
		if err != nil || got != c.want {
			t.Errorf("%s of %v = %v, %v; want %v", c.field, c.props, got, err, c.want)
		}
	}
	fr, err := rel.Field("late").Fragment(computed.Options{Node: "r0"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "startNode(r0).`priority`"; !strings.Contains(fr.Cypher, want) {
		t.Errorf("fragment %s does not read %s", fr.Cypher, want)
	}
}
