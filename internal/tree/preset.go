package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// PresetLabel labels the nodes diagrams are saved as. It starts with
// _Ragforge like the engine's other bookkeeping nodes, so it never clashes
// with a config's entities (whose names the schema keeps to identifiers an
// application chose).
const PresetLabel = "_RagforgeDiagram"

// presetKey writes the properties that identify a preset in a statement:
// its id and, when m declares a tenant, the tenant field = $tenant. A
// preset is saved with the tenant of the call that made it and found only
// by calls of that tenant, so another tenant's diagram id is unknown.
func presetKey(m *model.Model) (string, error) {
	key := "id: $id"
	if m.Tenant == nil {
		return key, nil
	}
	tf, err := ident.Quote(m.Tenant.Field)
	if err != nil {
		return "", err
	}
	return key + ", " + tf + ": $" + tenant.Param, nil
}

// preset is a saved diagram: what regenerates it.
type preset struct {
	ID, Tree, Name, Description string
	Filters                     Filters
	CreatedAt, UpdatedAt        time.Time
}

// savePreset writes p in its own write transaction: the one write of the
// tree tools, on the preset node alone. create makes a new node; otherwise
// the existing node's filters and update time change.
func (r *Runner) savePreset(ctx context.Context, p *preset, create bool) error {
	filters, err := json.Marshal(p.Filters)
	if err != nil {
		return err
	}
	params, err := r.params(ctx)
	if err != nil {
		return err
	}
	maps.Copy(params, map[string]any{"id": p.ID, "tree": p.Tree, "name": p.Name, "description": p.Description,
		"filters": string(filters), "created": p.CreatedAt, "updated": p.UpdatedAt})
	cypher := "MATCH (d:" + PresetLabel + " {" + r.presetKey + "}) SET d.filters = $filters, d.updated_at = $updated"
	if create {
		cypher = "CREATE (:" + PresetLabel + " {" + r.presetKey + ", tree: $tree, name: $name, description: $description, filters: $filters, created_at: $created, updated_at: $updated})"
	}
	_, err = neo4jtx.Write(ctx, r.env.Driver, r.env.Database, r.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return nil, err
		}
		return res.Consume(ctx)
	})
	if err != nil {
		return fmt.Errorf("tree: saving diagram %s: %w", p.ID, err)
	}
	return nil
}

// loadPreset reads the preset with the given id in a read transaction; nil
// when there is none.
func (r *Runner) loadPreset(ctx context.Context, id string) (*preset, error) {
	params, err := r.params(ctx)
	if err != nil {
		return nil, err
	}
	params["id"] = id
	out, err := neo4jtx.Read(ctx, r.env.Driver, r.env.Database, r.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "MATCH (d:"+PresetLabel+" {"+r.presetKey+"}) RETURN d.tree, d.name, d.description, d.filters, d.created_at, d.updated_at LIMIT 1", params)
		if err != nil {
			return nil, err
		}
		if !res.Next(ctx) {
			return nil, res.Err()
		}
		v := res.Record().Values
		p := &preset{ID: id}
		p.Tree, _ = v[0].(string)
		p.Name, _ = v[1].(string)
		p.Description, _ = v[2].(string)
		if s, ok := v[3].(string); ok {
			if err := json.Unmarshal([]byte(s), &p.Filters); err != nil {
				return nil, fmt.Errorf("its filters are not valid JSON: %w", err)
			}
		}
		p.CreatedAt, _ = v[4].(time.Time)
		p.UpdatedAt, _ = v[5].(time.Time)
		return p, nil
	})
	if err != nil {
		return nil, fmt.Errorf("tree: reading diagram %s: %w", id, err)
	}
	p, _ := out.(*preset)
	return p, nil
}
