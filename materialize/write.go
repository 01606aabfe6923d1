package materialize

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/schollz/progressbar/v3"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// OwnershipError is the refusal to write a property that nodes already
// hold when no state node claims it: it may be the user's data (docs/design.md,
// invariant 7).
type OwnershipError struct {
	Entity, Field, Property string
	// Owner is the field whose state claims the property, "" when no
	// state does but nodes hold it, or the stored field of that name.
	Owner string
	// StoredField is true when the property is a declared stored field.
	StoredField bool
}

func (e *OwnershipError) Error() string {
	switch {
	case e.StoredField:
		return fmt.Sprintf("materialize: refusing to write %s.%s into property %q: it is a stored field of %s; set cache_property to another name",
			e.Entity, e.Field, e.Property, e.Entity)
	case e.Owner != "":
		return fmt.Sprintf("materialize: refusing to write %s.%s into property %q: %s.%s's state owns it; drop that field first (materialize drop --field %s.%s) or set cache_property to another name",
			e.Entity, e.Field, e.Property, e.Entity, e.Owner, e.Entity, e.Owner)
	}
	return fmt.Sprintf("materialize: refusing to write %s.%s into property %q: %s nodes already hold that property and no materialization state claims it (it may be your data); set cache_property to another name, or remove the property yourself if it is a leftover",
		e.Entity, e.Field, e.Property, e.Entity)
}

// query runs q in a write transaction and returns its records.
func (x *Materializer) query(ctx context.Context, q string, params map[string]any) ([]*neo4j.Record, error) {
	return neo4jtx.Query(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite, q, params)
}

// autoCommitCount runs q in an implicit (auto-commit) transaction, as
// CALL … IN TRANSACTIONS requires, and returns the single integer it
// returns.
func (x *Materializer) autoCommitCount(ctx context.Context, q string, params map[string]any) (int64, error) {
	sess := neo4jtx.Session(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	res, err := sess.Run(ctx, q, params)
	if err != nil {
		return 0, err
	}
	rec, err := res.Single(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := rec.Values[0].(int64)
	return n, nil
}

var stateMatch = "MATCH (s:" + stateLabelQ + " {entity: $entity, field: $field}) "

// setState updates the field's state node with the given assignments
// (Cypher over s, with $entity and $field bound) and invalidates caches.
func (x *Materializer) setState(ctx context.Context, entity, field, set string, params map[string]any) error {
	p := map[string]any{"entity": entity, "field": field}
	for k, v := range params {
		p[k] = v
	}
	if _, err := x.query(ctx, stateMatch+"SET "+set+", s.updated_at = datetime()", p); err != nil {
		return fmt.Errorf("materialize: updating the state of %s.%s: %w", entity, field, err)
	}
	x.invalidate()
	return nil
}

// claim checks that the field may own its property and creates its state
// node, status building, in one transaction.
func (x *Materializer) claim(ctx context.Context, p *FieldPlan) error {
	if e := x.m.Entity(p.Entity); e != nil && e.Field(p.Property) != nil {
		return &OwnershipError{Entity: p.Entity, Field: p.Name, Property: p.Property, StoredField: true}
	}
	label, prop, err := labelAndProperty(p.Entity, p.Property)
	if err != nil {
		return err
	}
	sess := neo4jtx.Session(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	params := map[string]any{"entity": p.Entity, "field": p.Name, "property": p.Property, "hash": p.Hash}
	_, err = sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "MATCH (s:"+stateLabelQ+" {entity: $entity, property: $property}) WHERE s.field <> $field RETURN s.field AS owner", params)
		if err != nil {
			return nil, err
		}
		if rec, err := res.Single(ctx); err == nil {
			owner, _ := rec.Get("owner")
			o, _ := owner.(string)
			return nil, &OwnershipError{Entity: p.Entity, Field: p.Name, Property: p.Property, Owner: o}
		}
		res, err = tx.Run(ctx, "RETURN EXISTS { MATCH (n:"+label+") WHERE n."+prop+" IS NOT NULL } AS held", nil)
		if err != nil {
			return nil, err
		}
		rec, err := res.Single(ctx)
		if err != nil {
			return nil, err
		}
		if held, _ := rec.Get("held"); held == true {
			return nil, &OwnershipError{Entity: p.Entity, Field: p.Name, Property: p.Property}
		}
		res, err = tx.Run(ctx, "CREATE (s:"+stateLabelQ+" {entity: $entity, field: $field, property: $property, hash: $hash, status: 'building', rows: 0, started_at: datetime(), updated_at: datetime()})", params)
		if err != nil {
			return nil, err
		}
		_, err = res.Consume(ctx)
		return nil, err
	})
	if err != nil {
		if oe, ok := err.(*OwnershipError); ok {
			return oe
		}
		return fmt.Errorf("materialize: claiming %s.%s: %w", p.Entity, p.Name, err)
	}
	x.invalidate()
	return nil
}

// materialize brings one field to ready for the plan's hash: claim (or
// reset on a new hash), write from the cursor, index, mark ready. With
// refresh, a ready field is rewritten too.
func (x *Materializer) materialize(ctx context.Context, p *FieldPlan, refresh bool) (Action, error) {
	a := Action{Entity: p.Entity, Name: p.Name}
	st := p.State
	if st != nil && (st.Property != p.Property || st.Status == StatusDropping) {
		// A renamed cache property, or an interrupted drop: finish
		// removing the old values first.
		if _, err := x.drop(ctx, *st); err != nil {
			return a, err
		}
		st = nil
	}
	cursor := ""
	switch {
	case st == nil:
		if err := x.claim(ctx, p); err != nil {
			return a, err
		}
	case st.Hash != p.Hash:
		// The expression changed: the planner stops reading the property
		// (status building) before any value is rewritten.
		if err := x.setState(ctx, p.Entity, p.Name, "s.status = 'building', s.hash = $hash, s.rows = 0, s.cursor = null, s.started_at = datetime(), s.finished_at = null",
			map[string]any{"hash": p.Hash}); err != nil {
			return a, err
		}
		if st.Status == StatusReady {
			if err := x.grace(ctx, p.Entity+"."+p.Name); err != nil {
				return a, err
			}
		}
	case st.Status == StatusReady && !refresh:
		// The values stand; the index follows the config (added or
		// dropped by a later apply), and the state records it.
		a.Did, a.Rows = "up-to-date", st.Rows
		index, err := x.ensureIndex(ctx, p, st.Index)
		if err != nil {
			return a, err
		}
		if index != st.Index {
			if err := x.setState(ctx, p.Entity, p.Name, "s.index = $index", map[string]any{"index": nilIfEmpty(index)}); err != nil {
				return a, err
			}
			a.Did = "indexed"
			if index == "" {
				a.Did = "index dropped"
			}
		}
		return a, nil
	default:
		// Resume an interrupted unwind apply or refresh after its last
		// batch. The in-transactions method keeps no cursor and starts
		// over, so it clears the cursor and rows an interrupted unwind run
		// left: a later unwind run would otherwise resume from that
		// cursor and add its rows to the in-transactions count, and
		// status would report more rows than nodes.
		if x.opts.Method == WriteUnwind {
			cursor = st.Cursor
		}
		if cursor == "" {
			if err := x.setState(ctx, p.Entity, p.Name, "s.rows = 0, s.cursor = null, s.started_at = datetime()", nil); err != nil {
				return a, err
			}
		}
	}
	start := time.Now()
	rows, err := x.write(ctx, p, cursor)
	a.Rows = rows
	if err != nil {
		return a, err
	}
	d := time.Since(start)
	a.Seconds = d.Seconds()
	if d > 0 {
		a.NodesPerSecond = float64(rows) / d.Seconds()
	}
	owned := ""
	if st != nil {
		owned = st.Index
	}
	index, err := x.ensureIndex(ctx, p, owned)
	if err != nil {
		return a, err
	}
	if err := x.setState(ctx, p.Entity, p.Name, "s.status = 'ready', s.cursor = null, s.index = $index, s.finished_at = datetime()",
		map[string]any{"index": nilIfEmpty(index)}); err != nil {
		return a, err
	}
	a.Did = "materialized"
	if refresh {
		a.Did = "refreshed"
	}
	if st, err := x.readState(ctx, p.Ref()); err == nil && st != nil {
		a.Rows = st.Rows
	}
	return a, nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (x *Materializer) readState(ctx context.Context, ref model.FieldRef) (*FieldState, error) {
	res, err := x.query(ctx, stateMatch+"RETURN "+stateReturn, map[string]any{"entity": ref.Entity, "field": ref.Field})
	if err != nil || len(res) == 0 {
		return nil, err
	}
	s := stateFrom(res[0].AsMap())
	return &s, nil
}

// ids streams the element ids of entity's nodes after cursor ("" for
// all) and returns them sorted, so batches go in one total order (strings
// compare the same way in Cypher and Go: elementIds are ASCII) and a
// cursor can resume. elementId, not the id() Neo4j 5 deprecates and
// Cypher 25 removes.
func (x *Materializer) ids(ctx context.Context, entity string, cursor string) ([]string, error) {
	label, err := quote("entity", entity)
	if err != nil {
		return nil, err
	}
	q := "MATCH (n:" + label + ") WHERE elementId(n) > $cursor RETURN elementId(n) AS id"
	sess := neo4jtx.Session(ctx, x.driver, x.opts.Database, neo4j.AccessModeRead)
	defer sess.Close(ctx)
	ids, err := neo4j.ExecuteRead(ctx, sess, func(tx neo4j.ManagedTransaction) ([]string, error) {
		res, err := tx.Run(ctx, q, map[string]any{"cursor": cursor})
		if err != nil {
			return nil, err
		}
		var out []string
		for res.Next(ctx) {
			v, _ := res.Record().Values[0].(string)
			out = append(out, v)
		}
		return out, res.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("materialize: listing %s nodes: %w", entity, err)
	}
	slices.Sort(ids)
	return ids, nil
}

// differs is the Cypher condition "stored value s and runtime value v
// differ": null against a value, a value against null, another type (so a
// float replaces an equal integer) or another value.
const differs = "((s IS NULL) <> (v IS NULL) OR valueType(s) <> valueType(v) OR s <> v)"

// chunkFactor is how many batches one progress step covers in the
// in-transactions method.
const chunkFactor = 10

// writeInTransactions is the WriteInTransactions method; it returns the
// number of nodes of the label.
func (x *Materializer) writeInTransactions(ctx context.Context, p *FieldPlan) (int64, error) {
	label, prop, err := labelAndProperty(p.Entity, p.Property)
	if err != nil {
		return 0, err
	}
	r, err := x.query(ctx, "MATCH (n:"+label+") RETURN count(n) AS n", nil)
	if err != nil {
		return 0, err
	}
	n, _ := r[0].Get("n")
	total, _ := n.(int64)
	var b strings.Builder
	for _, sq := range p.Fragment.Subqueries {
		b.WriteString(sq)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "WITH n, n.%s AS s, %s AS v WHERE %s\nCALL (n, v) { SET n.%s = v } IN TRANSACTIONS OF $batch ROWS",
		prop, p.Fragment.Cypher, differs, prop)
	body := b.String()
	sess := neo4jtx.Session(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	run := func(q string, params map[string]any) error {
		res, err := sess.Run(ctx, q, params)
		if err == nil {
			_, err = res.Consume(ctx)
		}
		if err != nil {
			return fmt.Errorf("materialize: writing %s.%s (resumable: re-run the command): %w", p.Entity, p.Name, err)
		}
		return nil
	}
	bar := x.bar(total, p.Entity+"."+p.Name)
	chunk := int64(x.opts.BatchSize * chunkFactor)
	for skip := int64(0); skip < total; skip += chunk {
		if err := run("MATCH (n:"+label+") WITH n SKIP $skip LIMIT $limit\n"+body, map[string]any{"skip": skip, "limit": chunk, "batch": x.opts.BatchSize}); err != nil {
			return 0, err
		}
		done := min(skip+chunk, total)
		if err := x.setState(ctx, p.Entity, p.Name, "s.rows = $rows", map[string]any{"rows": done}); err != nil {
			return 0, err
		}
		if bar != nil {
			_ = bar.Set64(done)
		}
		if x.afterBatch != nil {
			if err := x.afterBatch(done); err != nil {
				return 0, err
			}
		}
	}
	// The label scan's order is not promised to be the same from one
	// chunk to the next: one pass over every node writes whatever a
	// chunk missed (and compares the rest).
	if err := run("MATCH (n:"+label+")\n"+body, map[string]any{"batch": x.opts.BatchSize}); err != nil {
		return 0, err
	}
	if bar != nil {
		_ = bar.Finish()
	}
	return total, x.setState(ctx, p.Entity, p.Name, "s.rows = $rows", map[string]any{"rows": total})
}

// setClause is the Cypher that computes the field for node n and stores it
// in the quoted property prop.
func setClause(p *FieldPlan, prop string) string {
	var b strings.Builder
	for _, sq := range p.Fragment.Subqueries {
		b.WriteString(sq)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "SET n.%s = %s", prop, p.Fragment.Cypher)
	return b.String()
}

func (x *Materializer) bar(total int64, what string) *progressbar.ProgressBar {
	if x.opts.Progress == nil {
		return nil
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(x.opts.Progress),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("nodes"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(x.opts.Progress) }),
	)
}

// write computes and stores the field for every node after cursor (an
// element id, "" for every node) and returns how many nodes it set.
func (x *Materializer) write(ctx context.Context, p *FieldPlan, cursor string) (int64, error) {
	if x.opts.Method == WriteInTransactions {
		return x.writeInTransactions(ctx, p)
	}
	label, prop, err := labelAndProperty(p.Entity, p.Property)
	if err != nil {
		return 0, err
	}
	ids, err := x.ids(ctx, p.Entity, cursor)
	if err != nil {
		return 0, err
	}
	bar := x.bar(int64(len(ids)), p.Entity+"."+p.Name)
	// Neo4j plans elementId(n) = id as a seek by element id
	// (NodeByElementIdSeek), one node per id, no label scan.
	q := "UNWIND $ids AS id MATCH (n:" + label + ") WHERE elementId(n) = id\n" + setClause(p, prop) + "\nRETURN count(*) AS rows"
	sess := neo4jtx.Session(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	var total int64
	for i := 0; i < len(ids); i += x.opts.BatchSize {
		batch := ids[i:min(i+x.opts.BatchSize, len(ids))]
		n, err := neo4j.ExecuteWrite(ctx, sess, func(tx neo4j.ManagedTransaction) (int64, error) {
			res, err := tx.Run(ctx, q, map[string]any{"ids": batch})
			if err != nil {
				return 0, err
			}
			rec, err := res.Single(ctx)
			if err != nil {
				return 0, err
			}
			n, _ := rec.Values[0].(int64)
			// The cursor moves in the same transaction as the values, so
			// a resumed apply never skips an unwritten batch.
			res, err = tx.Run(ctx, stateMatch+"SET s.cursor = $cursor, s.rows = coalesce(s.rows, 0) + $rows, s.updated_at = datetime()",
				map[string]any{"entity": p.Entity, "field": p.Name, "cursor": batch[len(batch)-1], "rows": n})
			if err != nil {
				return 0, err
			}
			_, err = res.Consume(ctx)
			return n, err
		})
		if err != nil {
			return total, fmt.Errorf("materialize: writing %s.%s (resumable: re-run apply): %w", p.Entity, p.Name, err)
		}
		total += n
		if bar != nil {
			_ = bar.Add(len(batch))
		}
		if x.afterBatch != nil {
			if err := x.afterBatch(total); err != nil {
				return total, err
			}
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	return total, nil
}

// ensureIndex makes the property's range index what the config says: with
// index (the schema's default) it creates the index, waits until it is
// online, and returns its name when apply owns it ("" when an equivalent
// index already existed under another name, which drop then leaves
// alone); with index: false it drops owned, the index the field's state
// says apply created, and returns "".
func (x *Materializer) ensureIndex(ctx context.Context, p *FieldPlan, owned string) (string, error) {
	if p.field == nil || !p.field.Config.Index {
		if owned != "" {
			return "", x.dropIndex(ctx, owned)
		}
		return "", nil
	}
	name := IndexName(p.Entity, p.Property)
	label, prop, err := labelAndProperty(p.Entity, p.Property)
	if err != nil {
		return "", err
	}
	qname, err := quote("index name", name)
	if err != nil {
		return "", err
	}
	q := "CREATE RANGE INDEX " + qname + " IF NOT EXISTS FOR (n:" + label + ") ON (n." + prop + ")"
	if _, err := x.query(ctx, q, nil); err != nil {
		return "", fmt.Errorf("materialize: creating index %s: %w", name, err)
	}
	res, err := x.query(ctx, "SHOW RANGE INDEXES YIELD name, entityType, labelsOrTypes, properties WHERE entityType = 'NODE' AND labelsOrTypes = [$label] AND properties = [$prop] RETURN name",
		map[string]any{"label": p.Entity, "prop": p.Property})
	if err != nil {
		return "", fmt.Errorf("materialize: finding index %s: %w", name, err)
	}
	if len(res) == 0 {
		return "", fmt.Errorf("materialize: index %s was created but is not listed", name)
	}
	actual, _ := res[0].Values[0].(string)
	bar := x.bar(-1, "index "+actual)
	if _, err := x.query(ctx, "CALL db.awaitIndex($name, $secs)", map[string]any{"name": actual, "secs": int64(x.opts.IndexWait.Seconds())}); err != nil {
		return "", fmt.Errorf("materialize: waiting for index %s: %w", actual, err)
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if actual != name {
		return "", nil
	}
	return name, nil
}

// dropIndex drops the index called name, if it exists.
func (x *Materializer) dropIndex(ctx context.Context, name string) error {
	qname, err := quote("index name", name)
	if err != nil {
		return err
	}
	if _, err := x.query(ctx, "DROP INDEX "+qname+" IF EXISTS", nil); err != nil {
		return fmt.Errorf("materialize: dropping index %s: %w", name, err)
	}
	return nil
}

// grace waits Options.Grace after a ready field was taken out of service,
// so that processes planning with a cached state have re-read it before
// any value changes (docs/design.md invariant 3 across processes).
func (x *Materializer) grace(ctx context.Context, field string) error {
	if x.opts.Grace <= 0 {
		return nil
	}
	if x.opts.Progress != nil {
		fmt.Fprintf(x.opts.Progress, "%s: waiting %v so every process stops reading the stored values (--grace)\n", field, x.opts.Grace)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(x.opts.Grace):
		return nil
	}
}

// drop removes one field's index, values and state. The state goes to
// dropping first, so the planner stops reading the property before any
// value disappears; an interrupted drop is finished by the next drop or
// apply.
func (x *Materializer) drop(ctx context.Context, s FieldState) (Action, error) {
	a := Action{Entity: s.Entity, Name: s.Field, Did: "dropped"}
	// Names come from a state node: checked before anything changes.
	label, prop, err := labelAndProperty(s.Entity, s.Property)
	if err != nil {
		return a, err
	}
	if err := x.setState(ctx, s.Entity, s.Field, "s.status = 'dropping'", nil); err != nil {
		return a, err
	}
	if s.Status == StatusReady {
		if err := x.grace(ctx, s.Entity+"."+s.Field); err != nil {
			return a, err
		}
	}
	for _, name := range []string{s.Index, IndexName(s.Entity, s.Property)} {
		if name == "" {
			continue
		}
		if err := x.dropIndex(ctx, name); err != nil {
			return a, err
		}
	}
	// Chunks of at most chunkFactor batches per statement, until none is
	// left: each statement's transaction stays small, and an interrupted
	// drop is finished by the next one.
	bar := x.bar(-1, "drop "+s.Entity+"."+s.Field)
	q := "MATCH (n:" + label + ") WHERE n." + prop + " IS NOT NULL WITH n LIMIT $limit CALL (n) { REMOVE n." + prop + " } IN TRANSACTIONS OF $batch ROWS RETURN count(*) AS removed"
	for {
		n, err := x.autoCommitCount(ctx, q, map[string]any{"limit": x.opts.BatchSize * chunkFactor, "batch": x.opts.BatchSize})
		if err != nil {
			return a, fmt.Errorf("materialize: removing %s.%s values (re-run drop to finish): %w", s.Entity, s.Field, err)
		}
		if n == 0 {
			break
		}
		a.Rows += n
		if bar != nil {
			_ = bar.Add64(n)
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if _, err := x.query(ctx, stateMatch+"DELETE s", map[string]any{"entity": s.Entity, "field": s.Field}); err != nil {
		return a, fmt.Errorf("materialize: deleting the state of %s.%s: %w", s.Entity, s.Field, err)
	}
	x.invalidate()
	return a, nil
}
