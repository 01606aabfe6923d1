package materialize

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/computed"
)

// checkReads EXPLAIN-checks, before apply or refresh writes anything, every
// `cypher:` computed field the given plans compute: the field itself and
// every field it reads, directly or through others. A body Neo4j does not
// classify as a read (computed.ExplainCheck, through readonly.Check) stops
// the command with an error naming the field: the write statement runs the
// body in a write transaction, where a body that writes would change the
// graph (docs/design.md, invariant 4).
func (x *Materializer) checkReads(ctx context.Context, plans []*FieldPlan) error {
	checked := map[*computed.Field]bool{}
	var visit func(ce *computed.Entity, f *computed.Field) error
	visit = func(ce *computed.Entity, f *computed.Field) error {
		if f == nil || checked[f] {
			return nil
		}
		checked[f] = true
		if f.Config.Cypher != "" {
			if err := computed.ExplainCheck(ctx, x.driver, x.opts.Database, f); err != nil {
				return fmt.Errorf("materialize: refusing to write: %w; nothing was written", err)
			}
		}
		for _, d := range f.DependsOn {
			if err := visit(ce, ce.Field(d)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range plans {
		if err := visit(p.entity, p.field); err != nil {
			return err
		}
	}
	return nil
}
