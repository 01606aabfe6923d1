package explore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// read runs both statements in one read transaction and builds the
// result.
func (x *explorer) read(ctx context.Context, a Args, tn any, srcs []*source, tops map[string]int) (*Result, error) {
	cq, cp, err := x.candidateStatement(srcs, tn, a.Explanations)
	if err != nil {
		return nil, err
	}
	now := x.env.Now()
	out, err := neo4jtx.Read(ctx, x.env.Driver, x.env.Database, x.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, cq, cp)
		if err != nil {
			return nil, err
		}
		var cands []*candidate
		for res.Next(ctx) {
			cands = append(cands, readCandidate(res.Record().Values, srcs))
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		kept, stats, perEntity := x.rank(cands, srcs, tops, now)
		r := &Result{Hits: []Hit{}, Edges: []Edge{}, Neighbours: []Node{}, NeighbourEdges: []Edge{}, TopEdges: []Edge{}}
		read := 0
		if len(kept) > 0 {
			ids := make([]string, len(kept))
			for i, c := range kept {
				ids[i] = c.id
			}
			q, p, err := x.contextStatement(ids, tn)
			if err != nil {
				return nil, err
			}
			res, err := tx.Run(ctx, q, p)
			if err != nil {
				return nil, err
			}
			rec, err := res.Single(ctx)
			if err != nil {
				return nil, err
			}
			read = x.assemble(r, rec, kept, srcs, a.Explanations)
		}
		if a.Explanations {
			r.Explanations = x.explain(srcs, stats, perEntity, tops, read)
		}
		return r, nil
	})
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	return out.(*Result), nil
}

// readCandidate reads a row of the candidate statement: id, found
// ([source, score] pairs; a name match's score is its texts, scored here
// and left out when nothing matches), degree, recency.
func readCandidate(v []any, srcs []*source) *candidate {
	c := &candidate{recency: v[3]}
	c.id, _ = v[0].(string)
	c.degree, _ = v[2].(int64)
	pairs, _ := v[1].([]any)
	for _, p := range pairs {
		pair, _ := p.([]any)
		if len(pair) != 2 {
			continue
		}
		src, _ := pair[0].(int64)
		if src < 0 || int(src) >= len(srcs) {
			continue
		}
		raw, ok := number(pair[1])
		if texts, isList := pair[1].([]any); isList && srcs[src].kind == kindMatch {
			raw = matchScore(srcs[src].terms, stringsOf(texts))
			ok = raw > 0
		}
		if ok {
			c.found = append(c.found, found{source: int(src), raw: raw})
		}
	}
	return c
}

// node reads [element id, entity index, projection] into a result node.
func (x *explorer) node(v any) (string, *Node, bool) {
	l, _ := v.([]any)
	if len(l) != 3 {
		return "", nil, false
	}
	id, _ := l[0].(string)
	i, ok := l[1].(int64)
	if !ok || i < 0 || int(i) >= len(x.ents) {
		return "", nil, false
	}
	return id, x.nodeOf(x.ents[i], l[2]), true
}

// nodeOf converts a node's projection.
func (x *explorer) nodeOf(ei *entityInfo, proj any) *Node {
	props, _ := proj.(map[string]any)
	n := &Node{Entity: ei.e.Name, Key: jsonValue(props[ei.e.UniqueField], ei.e.Field(ei.e.UniqueField))}
	for _, name := range ei.display {
		if v, ok := props[name]; ok && v != nil {
			if n.Fields == nil {
				n.Fields = map[string]any{}
			}
			n.Fields[name] = jsonValue(v, ei.e.Field(name))
		}
	}
	return n
}

// rankedEdge is an edge with what ranks it among the top edges.
type rankedEdge struct {
	Edge
	id, start, end string
	relevance      float64
	hasRel         bool
	date           time.Time
	hasDate        bool
}

// edge reads [start id, end id, type, properties, id]; ok is false when
// an end is not a node of the result.
func (x *explorer) edge(v any, refs map[string]Ref) (*rankedEdge, bool) {
	l, _ := v.([]any)
	if len(l) != 5 {
		return nil, false
	}
	e := &rankedEdge{}
	e.id, _ = l[4].(string)
	e.start, _ = l[0].(string)
	e.end, _ = l[1].(string)
	e.Type, _ = l[2].(string)
	from, ok1 := refs[e.start]
	to, ok2 := refs[e.end]
	if !ok1 || !ok2 {
		return nil, false
	}
	e.From, e.To = from, to
	props, _ := l[3].(map[string]any)
	for _, f := range x.rels.props[e.Type] {
		if v, ok := props[f.Name]; ok && v != nil {
			if e.Properties == nil {
				e.Properties = map[string]any{}
			}
			e.Properties[f.Name] = jsonValue(v, f)
		}
	}
	if x.rels.relevance != "" {
		e.relevance, e.hasRel = number(props[x.rels.relevance])
	}
	for _, name := range x.rels.dates {
		if t, ok := timeOf(props[name], storage(x.rels.prop(e.Type, name))); ok {
			e.date, e.hasDate = t, true
			break
		}
	}
	return e, true
}

// compareEdges orders edges most relevant first: by relevance, then the
// most recent date, then stably by type and ends.
func compareEdges(a, b *rankedEdge) int {
	return cmp.Or(
		cmp.Compare(b2i(b.hasRel), b2i(a.hasRel)), cmp.Compare(b.relevance, a.relevance),
		cmp.Compare(b2i(b.hasDate), b2i(a.hasDate)), b.date.Compare(a.date),
		cmp.Compare(a.Type, b.Type), cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.id, b.id))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// assemble fills the result from the context statement's row and returns
// how many neighbour edges it read.
func (x *explorer) assemble(r *Result, rec *neo4j.Record, kept []*candidate, srcs []*source, explain bool) int {
	get := func(k string) any { v, _ := rec.Get(k); return v }
	refs := map[string]Ref{}
	nodes := map[string]*Node{}
	hitList, _ := get("hits").([]any)
	for _, v := range hitList {
		if id, n, ok := x.node(v); ok {
			nodes[id], refs[id] = n, Ref{Entity: n.Entity, Key: n.Key}
		}
	}
	for _, c := range kept {
		n, ok := nodes[c.id]
		if !ok {
			continue
		}
		h := Hit{Node: *n, Score: round(c.score), Salience: round(c.salience)}
		if explain {
			h.Why = x.why(c, srcs)
		}
		r.Hits = append(r.Hits, h)
	}
	var all []*rankedEdge
	between, _ := get("between").([]any)
	for _, v := range between {
		if e, ok := x.edge(v, refs); ok {
			r.Edges = append(r.Edges, e.Edge)
			all = append(all, e)
		}
	}
	ownerID := ""
	if id, n, ok := x.node(get("owner")); ok {
		ownerID, r.Owner = id, n
		refs[id] = Ref{Entity: n.Entity, Key: n.Key}
		owned, _ := get("owner_edges").([]any)
		for _, v := range owned {
			if e, ok := x.edge(v, refs); ok {
				r.OwnerEdges = append(r.OwnerEdges, e.Edge)
				all = append(all, e)
			}
		}
	}
	// Neighbours: each hit's edges to nodes outside the hits and the
	// owner, best first, NeighboursPerHit per hit, MaxNeighbours in all.
	rows, _ := get("neighbours").([]any)
	byHit := map[string][]*rankedEdge{}
	for _, v := range rows {
		l, _ := v.([]any)
		if len(l) != 5 {
			continue
		}
		hid, _ := l[0].(string)
		mid, _ := l[1].(string)
		if mid == ownerID {
			continue
		}
		i, ok := l[3].(int64)
		if !ok || i < 0 || int(i) >= len(x.ents) {
			continue
		}
		n := x.nodeOf(x.ents[i], l[4])
		local := map[string]Ref{hid: refs[hid], mid: {Entity: n.Entity, Key: n.Key}}
		if e, ok := x.edge(l[2], local); ok {
			if _, seen := nodes[mid]; !seen {
				nodes[mid] = n
			}
			byHit[hid] = append(byHit[hid], e)
		}
	}
	added := map[string]bool{}
	for _, c := range kept {
		es := byHit[c.id]
		slices.SortFunc(es, compareEdges)
		took := map[string]bool{}
		for _, e := range es {
			mid := e.start
			if mid == c.id {
				mid = e.end
			}
			if len(took) == NeighboursPerHit && !took[mid] {
				continue
			}
			if !added[mid] {
				if len(added) == MaxNeighbours {
					continue
				}
				added[mid] = true
				r.Neighbours = append(r.Neighbours, *nodes[mid])
			}
			took[mid] = true
			r.NeighbourEdges = append(r.NeighbourEdges, e.Edge)
			all = append(all, e)
		}
	}
	// The owner's edges to hits are edges between hits when the owner is
	// a hit: each edge counts once.
	slices.SortFunc(all, compareEdges)
	all = slices.CompactFunc(all, func(a, b *rankedEdge) bool { return a.id == b.id })
	for _, e := range all[:min(len(all), TopEdges)] {
		r.TopEdges = append(r.TopEdges, e.Edge)
	}
	return len(rows)
}

// explain counts what each source and entity found.
func (x *explorer) explain(srcs []*source, stats []sourceStats, perEntity map[int]int, tops map[string]int, neighbours int) *Explanations {
	ex := &Explanations{Sources: []SourceCount{}, Entities: []EntityCount{}, NeighbourEdgesRead: neighbours, Salience: SalienceFormula}
	searched := map[*entityInfo]bool{}
	for i, s := range srcs {
		searched[s.ent] = true
		ex.Sources = append(ex.Sources, SourceCount{Source: s.label(), Entity: s.ent.e.Name, Hits: stats[i].hits, DroppedByThreshold: stats[i].dropped})
	}
	for i, ei := range x.ents {
		if !searched[ei] {
			ex.NotSearched = append(ex.NotSearched, ei.e.Name)
			continue
		}
		n, top := perEntity[i], tops[ei.e.Name]
		ex.Entities = append(ex.Entities, EntityCount{Entity: ei.e.Name, Candidates: n, Kept: min(n, top), DroppedByTop: max(n-top, 0), Top: top})
	}
	return ex
}
