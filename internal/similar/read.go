package similar

import (
	"context"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/tools"
)

// maxString is the length a returned field is cut to.
const maxString = 200

// names are the quoted identifiers of one entity's statements, all from
// the model.
type names struct {
	label, key, vector, rels string
	// tenant is "" without a tenant, else " AND x.<field> = $tenant" with
	// x to be replaced by the node's variable.
	tenant string
	fields []string
}

func (f *finder) names() (*names, error) {
	var n names
	var err error
	if n.label, err = ident.Quote(f.e.Name); err != nil {
		return nil, err
	}
	if n.key, err = ident.Quote(f.e.UniqueField); err != nil {
		return nil, err
	}
	if f.vi != nil {
		if n.vector, err = ident.Quote(f.vi.VectorProperty()); err != nil {
			return nil, err
		}
	}
	var types []string
	for _, t := range f.via {
		q, err := ident.Quote(t)
		if err != nil {
			return nil, err
		}
		types = append(types, q)
	}
	n.rels = strings.Join(types, "|")
	if f.m.Tenant != nil {
		q, err := ident.Quote(f.m.Tenant.Field)
		if err != nil {
			return nil, err
		}
		n.tenant = " AND x." + q + " = $tenant"
	}
	for _, fl := range f.e.Fields {
		if !fl.Exposed || fl.Name == f.e.UniqueField {
			continue
		}
		q, err := ident.Quote(fl.Name)
		if err != nil {
			return nil, err
		}
		n.fields = append(n.fields, "."+q)
	}
	return &n, nil
}

// scoped is the tenant predicate on variable v ("" without a tenant).
func (n *names) scoped(v string) string { return strings.ReplaceAll(n.tenant, "x.", v+".") }

// candidate is one node a mode found.
type candidate struct {
	id  string // element id
	key any
	// semantic is the vector similarity to the node (nil when not
	// computed or when it has no vector).
	semantic *float64
	// shared are the node's neighbours it shares, by element id; degree
	// is its neighbour count (capped).
	shared []string
	degree int64
}

// find reads the node and its candidates in one read transaction and
// ranks them.
func (f *finder) find(ctx context.Context, a Args, tn any) (*Result, error) {
	n, err := f.names()
	if err != nil {
		return nil, err
	}
	res := &Result{Entity: f.e.Name, ID: a.ID, Mode: a.Mode, Measure: a.Measure, Similar: []Hit{}}
	_, err = neo4jtx.Read(ctx, f.env.Driver, f.env.Database, f.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res.Similar, res.Notes = []Hit{}, nil
		r := &reader{f: f, n: n, tx: tx, ctx: ctx, params: map[string]any{"tenant": tn, "key": a.ID}}
		return nil, r.run(a, res)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// reader holds one transaction's state.
type reader struct {
	f      *finder
	n      *names
	tx     neo4j.ManagedTransaction
	ctx    context.Context
	params map[string]any
	// node's element id, neighbour count and whether it has a vector.
	node      string
	degree    int64
	hasVector bool
	// degrees are the shared neighbours' neighbour counts.
	degrees map[string]int64
}

// query runs one statement with the reader's parameters and more.
func (r *reader) query(q string, more map[string]any) ([]*neo4j.Record, error) {
	params := map[string]any{}
	for k, v := range r.params {
		params[k] = v
	}
	for k, v := range more {
		params[k] = v
	}
	res, err := r.tx.Run(r.ctx, q, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(r.ctx)
}

func (r *reader) run(a Args, res *Result) error {
	f, n := r.f, r.n
	deg := "0"
	if n.rels != "" {
		deg = "size(COLLECT { MATCH (n)-[:" + n.rels + "]-(y) WHERE true" + n.scoped("y") + " RETURN DISTINCT y LIMIT $maxDegree })"
	}
	vec := "false"
	if n.vector != "" {
		vec = "n." + n.vector + " IS NOT NULL"
	}
	recs, err := r.query("MATCH (n:"+n.label+" {"+n.key+": $key}) WHERE true"+n.scoped("n")+
		"\nRETURN elementId(n) AS id, "+deg+" AS degree, "+vec+" AS hasVector LIMIT 1", map[string]any{"maxDegree": MaxDegree})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return tools.Fail(f.name, "/id", nil, "no %s has %s %v (find it with query_entities or a search)", f.e.Name, f.e.UniqueField, a.ID)
	}
	r.node, _ = recs[0].Values[0].(string)
	r.degree, _ = recs[0].Values[1].(int64)
	r.hasVector, _ = recs[0].Values[2].(bool)
	if r.degree >= MaxDegree {
		res.Notes = append(res.Notes, fmt.Sprintf("it has %d or more neighbours: counted as %d", MaxDegree, MaxDegree))
	}

	cands := map[string]*candidate{}
	if a.Mode != Structural {
		if c := f.env.EmbedderCaveat(); c != "" {
			res.Notes = append(res.Notes, c)
		}
		if !r.hasVector {
			res.Notes = append(res.Notes, fmt.Sprintf("this %s has no stored vector in index %s yet (run `ragforge-plan embed CONFIG --field %s.%s`), so semantic similarity is not available for it", f.e.Name, f.vi.Name, f.e.Name, f.vi.Field))
		} else if err := r.nearest(a, cands); err != nil {
			return err
		}
	}
	if a.Mode != Semantic {
		if err := r.neighbours(cands, res); err != nil {
			return err
		}
	}
	if err := r.describe(a, cands); err != nil {
		return err
	}
	ranked := rank(a, r.degree, r.degrees, cands)
	if len(ranked) > a.TopK {
		ranked = ranked[:a.TopK]
	}
	return r.fields(ranked, res)
}

// nearest adds the vector index's nearest neighbours of the node's own
// vector: top_k for semantic, SemanticPool for hybrid. With a tenant the
// index is asked for ten times as many, as the others' nodes are dropped
// after it.
func (r *reader) nearest(a Args, cands map[string]*candidate) error {
	n := r.n
	want := a.TopK
	if a.Mode == Hybrid {
		want = max(want, SemanticPool)
	}
	ask := want + 1
	if n.tenant != "" {
		ask *= 10
	}
	recs, err := r.query("MATCH (n) WHERE elementId(n) = $node"+n.scoped("n")+"\n"+
		"CALL db.index.vector.queryNodes($index, $ask, n."+n.vector+") YIELD node AS m, score\n"+
		"WHERE m <> n AND m:"+n.label+r.n.scoped("m")+"\nRETURN elementId(m) AS id, score ORDER BY score DESC LIMIT $want",
		map[string]any{"node": r.node, "index": r.f.vi.Name, "ask": int64(ask), "want": int64(want)})
	if err != nil {
		return err
	}
	for _, rec := range recs {
		id, _ := rec.Values[0].(string)
		score, _ := rec.Values[1].(float64)
		cands[id] = &candidate{id: id, semantic: &score}
	}
	return nil
}

// neighbours adds the nodes that share a neighbour with the node, with
// the shared neighbours and their neighbour counts: at most MaxNeighbours
// neighbours, MaxFanout candidates through each.
func (r *reader) neighbours(cands map[string]*candidate, res *Result) error {
	n := r.n
	recs, err := r.query("MATCH (n) WHERE elementId(n) = $node"+n.scoped("n")+"\n"+
		"CALL (n) { MATCH (n)-[:"+n.rels+"]-(z) WHERE true"+n.scoped("z")+" RETURN DISTINCT z LIMIT $maxNeighbours }\n"+
		"CALL (n, z) { MATCH (z)-[:"+n.rels+"]-(m:"+n.label+") WHERE m <> n"+n.scoped("m")+" RETURN DISTINCT m LIMIT $fanout }\n"+
		"WITH z, collect(elementId(m)) AS ms\n"+
		"RETURN elementId(z) AS z, ms, size(COLLECT { MATCH (z)-[:"+n.rels+"]-(y) WHERE true"+n.scoped("y")+" RETURN DISTINCT y LIMIT $maxDegree }) AS degree",
		map[string]any{"node": r.node, "maxNeighbours": int64(MaxNeighbours + 1), "fanout": int64(MaxFanout + 1), "maxDegree": int64(MaxDegree)})
	if err != nil {
		return err
	}
	r.degrees = map[string]int64{}
	capped := false
	for i, rec := range recs {
		if i == MaxNeighbours {
			res.Notes = append(res.Notes, fmt.Sprintf("it has more than %d neighbours over %s: only %d were compared through", MaxNeighbours, strings.Join(r.f.via, ", "), MaxNeighbours))
			break
		}
		z, _ := rec.Values[0].(string)
		ms, _ := rec.Values[1].([]any)
		r.degrees[z], _ = rec.Values[2].(int64)
		if len(ms) > MaxFanout {
			ms, capped = ms[:MaxFanout], true
		}
		for _, m := range ms {
			id, _ := m.(string)
			c := cands[id]
			if c == nil {
				c = &candidate{id: id}
				cands[id] = c
			}
			c.shared = append(c.shared, z)
		}
	}
	if capped {
		res.Notes = append(res.Notes, fmt.Sprintf("a neighbour links more than %d %s nodes: %d of them were compared", MaxFanout, r.f.e.Name, MaxFanout))
	}
	return nil
}

// describe reads every candidate's key, its neighbour count (structural
// modes) and its vector similarity to the node (hybrid, for the
// candidates structural mode found).
func (r *reader) describe(a Args, cands map[string]*candidate) error {
	if len(cands) == 0 {
		return nil
	}
	n := r.n
	ids := make([]string, 0, len(cands))
	for id := range cands {
		ids = append(ids, id)
	}
	deg, sem := "0", "null"
	if a.Mode != Semantic {
		deg = "size(COLLECT { MATCH (m)-[:" + n.rels + "]-(y) WHERE true" + n.scoped("y") + " RETURN DISTINCT y LIMIT $maxDegree })"
	}
	// The index proposes the semantic candidates, but its scores are
	// approximate (Neo4j may quantize the vectors it indexes): every
	// candidate is scored on the stored vectors.
	if a.Mode != Structural && r.hasVector {
		fn := "vector.similarity.cosine"
		if r.f.vi.Similarity == "euclidean" {
			fn = "vector.similarity.euclidean"
		}
		sem = "CASE WHEN m." + n.vector + " IS NULL THEN null ELSE " + fn + "(n." + n.vector + ", m." + n.vector + ") END"
	}
	recs, err := r.query("MATCH (n) WHERE elementId(n) = $node"+n.scoped("n")+"\nUNWIND $ids AS id\n"+
		"MATCH (m:"+n.label+") WHERE elementId(m) = id"+n.scoped("m")+"\n"+
		"RETURN id, m."+n.key+" AS key, "+deg+" AS degree, "+sem+" AS semantic",
		map[string]any{"node": r.node, "ids": ids, "maxDegree": int64(MaxDegree)})
	if err != nil {
		return err
	}
	for id := range cands {
		cands[id].key, cands[id].semantic = nil, nil
	}
	for _, rec := range recs {
		id, _ := rec.Values[0].(string)
		c := cands[id]
		c.key = rec.Values[1]
		c.degree, _ = rec.Values[2].(int64)
		if s, ok := rec.Values[3].(float64); ok {
			c.semantic = &s
		}
	}
	// A candidate that vanished since (or is not the tenant's) is dropped.
	for id, c := range cands {
		if c.key == nil {
			delete(cands, id)
		}
	}
	return nil
}

// fields reads the exposed fields of the ranked hits and fills the
// result.
func (r *reader) fields(ranked []scored, res *Result) error {
	if len(ranked) == 0 {
		return nil
	}
	ids := make([]string, len(ranked))
	for i, s := range ranked {
		ids[i] = s.c.id
	}
	proj := "{}"
	if len(r.n.fields) > 0 {
		proj = "m {" + strings.Join(r.n.fields, ", ") + "}"
	}
	recs, err := r.query("UNWIND $ids AS id\nMATCH (m:"+r.n.label+") WHERE elementId(m) = id"+r.n.scoped("m")+"\nRETURN id, "+proj+" AS fields",
		map[string]any{"ids": ids})
	if err != nil {
		return err
	}
	conv := neo4jvalue.New(r.ctx, r.f.m, maxString)
	byID := map[string]map[string]any{}
	for _, rec := range recs {
		id, _ := rec.Values[0].(string)
		v, _ := conv.Value("", rec.Values[1])
		fs, _ := v.(map[string]any)
		byID[id] = fs
	}
	for _, s := range ranked {
		h := Hit{ID: s.c.key, Score: s.score, Semantic: s.c.semantic, Shared: len(s.c.shared), Fields: byID[s.c.id]}
		if res.Mode != Semantic {
			st := s.structural
			h.Structural = &st
		}
		if res.Mode == Structural {
			h.Semantic = nil
		}
		res.Similar = append(res.Similar, h)
	}
	res.Notes = append(res.Notes, conv.Notes()...)
	return nil
}
