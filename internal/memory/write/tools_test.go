package write_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestWritesRefuseAConfidenceOutsideZeroToOne: the schemas leave the
// bounds of confidence to the graph schema's one sentence, and every write
// tool's handler refuses a value outside them before it writes.
func TestWritesRefuseAConfidenceOutsideZeroToOne(t *testing.T) {
	ctx := tenant.With(context.Background(), "alice")
	for _, tool := range write.New(memoryModel(t), tools.Env{}).Tools() {
		var args string
		switch {
		case strings.HasPrefix(tool.Name, "update_"):
			args = `{"entity_key":"k","source":"chat","confidence":1.5}`
		case strings.HasSuffix(tool.Name, "_relationship"):
			args = `{"from_entity_key":"a","to_entity_key":"b","relationship_type":"relates_to","source":"chat","confidence":-0.1}`
		default:
			args = `{"name":"x","canonical_name":"x","type":"place","description":"d","content_type":"note","source":"chat","confidence":1.5}`
		}
		_, err := tool.Handler(ctx, json.RawMessage(args))
		var ce *tools.CallError
		if !errors.As(err, &ce) || ce.Problems[0].Path != "/confidence" {
			t.Errorf("%s %s: %v, want a call error at /confidence", tool.Name, args, err)
		}
	}
}
