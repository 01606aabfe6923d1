package engine

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/planner"
)

// emptySearchNote says why a semantic_search found nothing, so the agent
// does not read an empty list as "nothing is similar": the index holds no
// vector of the tenant's nodes yet (they were loaded without embedding),
// or nothing scored at least min_score or met the conditions. The first
// costs one EXISTS read of the label, only after an empty result.
func (e *Engine) emptySearchNote(ctx context.Context, st *planner.Statement) (string, error) {
	vi := e.vectorIndex(st.Embed.Index)
	ent := e.m.Entity(st.Shape.Entity)
	if vi == nil || ent == nil {
		return "", fmt.Errorf("engine: semantic_search planned over index %q of %q, which the model does not declare", st.Embed.Index, st.Shape.Entity)
	}
	label, err := ident.Quote(ent.Name)
	if err != nil {
		return "", err
	}
	prop, err := ident.Quote(vi.VectorProperty())
	if err != nil {
		return "", err
	}
	params := map[string]any{}
	scoped, err := e.tenantAnd("n", st, params)
	if err != nil {
		return "", err
	}
	q := "RETURN EXISTS { MATCH (n:" + label + ") WHERE n." + prop + " IS NOT NULL" + scoped + " } AS any"
	rows, err := e.readRows(ctx, q, params)
	if err != nil {
		return "", fmt.Errorf("engine: checking vector index %s for vectors: %w", vi.Name, err)
	}
	if found := len(rows) == 1 && rows[0][0] == true; !found {
		return fmt.Sprintf("vector index %s holds no vectors of %s yet: their %s was never embedded (run `ragforge-plan embed CONFIG --field %s.%s` with the embedder this server uses), so semantic_search cannot find them; use fulltext_search or query_entities meanwhile", vi.Name, ent.Name, vi.Field, ent.Name, vi.Field), nil
	}
	return fmt.Sprintf("no %s scored at least min_score %v or met the conditions; a lower min_score or fewer conditions may find some", ent.Name, st.Params["min_score"]), nil
}
