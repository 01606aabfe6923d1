package planner

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// builder assembles one statement: clauses in order, parameters numbered in
// the order they are added, and the uses of fields.
type builder struct {
	p      *Planner
	tool   string
	e      *model.Entity
	cc     map[string]ComputedCypher
	params map[string]any
	uses   []model.Use
	np     int
	// nv numbers the variables of relationship tests (m0, r0, m1, …).
	nv    int
	lines []string
	// scope lists the variables (unescaped) carried from clause to clause
	// besides n, in the order they were introduced.
	scope     []string
	have      map[string]bool
	haveAlias map[string]bool
	// err is the first name that could not be quoted; statement returns it.
	err error
	// sortKeys are the ranking keys the RETURN carries (sortKeyColumns).
	sortKeys []SortKey
	// starts maps the predicate of a `some` relationship test whose
	// related entity is pinned by an index, or that holds such a test
	// (hop.next), to its hop; match starts the statement there instead of
	// testing a top-level one on every node.
	starts map[string]*hop
	// pins are the equalities top-level `some` relationship tests pin
	// their related entity by (Shape.Pins).
	pins []Pin
	// textOrdered are the text fields it orders (Shape.TextOrdered).
	textOrdered []TextOrder
	// pageParam is the parameter of the statement's page size, once
	// pageSize named it (Shape.PageParam).
	pageParam string
	// page, when set, is the field whose page the statement returns
	// instead of its shortened value (cut).
	page *textPage
	// definite makes field tests null-safe, coalesce(test, false), while
	// the conditions of a not (or of an all-test's failure) are written:
	// negated, a test on a missing value must be false, not null.
	definite bool
	// aggs are the related aggregates the statement computes, by the
	// JSON of their call (relatedAggregate).
	aggs map[string]*relatedAggregate
	// held maps a read of n's property (as expr renders it) to the
	// variable that holds its value for the rest of the statement: a node
	// that went through a list has lost Neo4j's cache of the properties
	// read before, and each read again is a db hit per row (read).
	held map[string]string
	// names is the state of the relationship tests' names (as).
	names names
}

func (p *Planner) newBuilder(tool string, e *model.Entity, state model.State) (*builder, error) {
	b := &builder{p: p, tool: tool, e: e, params: map[string]any{}, have: map[string]bool{}, haveAlias: map[string]bool{}, starts: map[string]*hop{}}
	if e != nil {
		cc, err := p.computedFor(e, state)
		if err != nil {
			return nil, err
		}
		b.cc = cc
	}
	return b, nil
}

// fieldBuilder starts the statement of a tool that works on one field of
// one entity (the specialized searches), resolving the field at /field.
func (p *Planner) fieldBuilder(tool string, e *model.Entity, field string, state model.State) (*builder, fieldRef, error) {
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, fieldRef{}, err
	}
	r, err := b.field(field, "/field")
	if err != nil {
		return nil, fieldRef{}, err
	}
	return b, r, nil
}

// param adds an agent value and returns its placeholder.
func (b *builder) param(v any) string {
	name := fmt.Sprintf("p%d", b.np)
	b.np++
	b.params[name] = v
	return "$" + name
}

// pageSize adds the statement's page size under the name limit, the
// parameter Execute raises by one to tell a full page from a cut one
// (Shape.PageParam).
func (b *builder) pageSize(n int) string {
	b.pageParam = "limit"
	return b.named(b.pageParam, int64(n))
}

// named adds a value under a fixed name (limit, offset, …) for readable
// statements.
func (b *builder) named(name string, v any) string {
	b.params[name] = v
	return "$" + name
}

// q quotes a name from the model (label, relationship type, property,
// variable) through ident.Quote. A model built in Go, not loaded from a
// validated config, may hold a name outside the identifier rules: the first
// such name is recorded and statement returns it, so Plan answers with an
// error instead of Cypher.
func (b *builder) q(name string) string {
	s, err := ident.Quote(name)
	if err != nil {
		b.fail(fmt.Errorf("planner: %s: %w", b.tool, err))
		return "``"
	}
	return s
}

// prop renders variable.`property`.
func (b *builder) prop(variable, name string) string { return variable + "." + b.q(name) }

// fail records the first error met while writing the statement.
func (b *builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *builder) line(format string, args ...any) {
	b.lines = append(b.lines, fmt.Sprintf(format, args...))
}

// fieldRef is a field of the builder's entity, stored or computed, or a
// field (or relationship property) of another variable.
type fieldRef struct {
	f *model.Field
	c *model.ComputedField // nil for a stored field
	// node is the variable holding the field when it is not n (a related
	// entity or a relationship of a relationship condition).
	node string
	// inline is the Cypher of a computed field of a relationship or of a
	// related entity, over node; "" for every other field.
	inline string
	// agg is set for the value of a related aggregate, a number computed
	// in the statement like a runtime computed field (f names its key).
	agg *relatedAggregate
}

// field resolves a field name of the entity, or returns a CallError that
// lists the valid names.
func (b *builder) field(name, path string) (fieldRef, error) {
	if f := b.e.Field(name); f != nil && !b.p.tenantField(f.Name) {
		return fieldRef{f: f}, nil
	}
	if c := b.e.ComputedField(name); c != nil {
		return fieldRef{f: &c.Field, c: c}, nil
	}
	return fieldRef{}, tools.Fail(b.tool, path, b.p.fieldNames(b.e), "%q is not a field of %s", name, b.e.Name)
}

// runtime reports whether the field must be computed in the statement
// (a computed field that is not read from a ready cache property).
func (b *builder) runtime(r fieldRef) bool {
	return r.agg != nil || r.c != nil && b.cc[r.c.Name].Stored == ""
}

// expr is the Cypher that reads the field: n.`prop`, n.`cache_prop` for a
// ready materialized field, or the computed variable (after ensure).
func (b *builder) expr(r fieldRef) string {
	if r.inline != "" {
		return r.inline
	}
	if r.agg != nil {
		return b.q(r.agg.v)
	}
	if r.node != "" {
		return typedText(r.f, b.prop(r.node, r.f.Name))
	}
	if r.c == nil {
		return typedText(r.f, b.prop("n", r.f.Name))
	}
	if s := b.cc[r.c.Name].Stored; s != "" {
		return b.prop("n", s)
	}
	return b.q(VarName(r.c.Name))
}

// read is the Cypher of x, a read of n's property: the variable that
// holds its value when there is one (held), else x.
func (b *builder) read(x string) string {
	if v, ok := b.held[x]; ok {
		return v
	}
	return x
}

// use records a use of a field.
func (b *builder) use(r fieldRef, kind model.UseKind) {
	if r.agg != nil {
		return // no field of the entity
	}
	u := model.Use{Entity: b.e.Name, Field: r.f.Name, Kind: kind, Computed: r.c != nil}
	if r.c != nil && !b.runtime(r) {
		u.Materialized = true
	}
	for _, x := range b.uses {
		if x == u {
			return
		}
	}
	b.uses = append(b.uses, u)
}

// carried renders the variables to carry: n and the scope.
func (b *builder) carried() string {
	parts := []string{"n"}
	for _, v := range b.scope {
		parts = append(parts, b.q(v))
	}
	return strings.Join(parts, ", ")
}

// ensure emits the clauses that compute the given runtime fields (and the
// computed fields they need), each once, in dependency order.
func (b *builder) ensure(refs ...fieldRef) error {
	for _, r := range refs {
		if r.agg != nil {
			b.ensureAggregate(r.agg)
			continue
		}
		if r.c == nil || !b.runtime(r) {
			continue
		}
		if err := b.ensureName(r.c.Name); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) ensureName(name string) error {
	if b.have[name] {
		return nil
	}
	cc, ok := b.cc[name]
	if !ok {
		return fmt.Errorf("planner: no compiled Cypher for computed field %s.%s", b.e.Name, name)
	}
	if cc.Stored != "" {
		return nil
	}
	for i, sq := range cc.Subqueries {
		alias := cc.Aliases[i]
		if b.haveAlias[alias] {
			continue
		}
		b.line("%s", sq)
		b.scope = append(b.scope, alias)
		b.haveAlias[alias] = true
	}
	v := VarName(name)
	b.line("WITH %s, %s AS %s", b.carried(), cc.Expr, b.q(v))
	b.scope = append(b.scope, v)
	b.have[name] = true
	return nil
}

// filterScope emits WITH <carried> WHERE preds, for predicates on computed
// values.
func (b *builder) filterScope(preds []string) {
	if len(preds) == 0 {
		return
	}
	b.line("WITH %s\nWHERE %s", b.carried(), strings.Join(preds, " AND "))
}

// match emits the entity's MATCH with the predicates that need no computed
// field; it starts the statement's rows, with nothing else in scope.
//
// A predicate that is a pinned relationship test (see starts) becomes a
// pattern of the MATCH instead of an EXISTS on every node:
//
//	MATCH (n:L)-[r0:TYPE]->(m0:R)
//	MATCH (n)-[r1:TYPE2]->(m1:R2)
//	WHERE <tenant of n> AND <tenant of m0> AND <conditions on m0, r0> AND … AND <other predicates>
//	WITH DISTINCT n
//
// Neo4j never starts an EXISTS from its inner side: it reads every node
// of the label (or of the tenant) and tests each (SemiApply). A pattern
// lets its cost-based planner start from the index that pins m0 and
// expand to n, or from another index when that is cheaper. The rows are the same: n is kept when some
// m0 passes the related conditions, and DISTINCT makes it one row however
// many m0 and parallel relationships lead to it, so order, paging and
// aggregates downstream see what EXISTS gave them. Each pinned test gets a
// MATCH of its own, since one MATCH would require its relationships to be
// distinct, where two EXISTS may share one.
func (b *builder) match(preds []string) {
	var pinned []*hop
	var rest []string
	for _, p := range preds {
		if h := b.starts[p]; h != nil {
			pinned = append(pinned, h)
			continue
		}
		rest = append(rest, p)
	}
	if len(pinned) == 0 {
		b.matchLabel(rest)
		return
	}
	preds = b.scoped("n", nil)
	n := "n:" + b.q(b.e.Name)
	for _, h := range pinned {
		preds = append(preds, b.walk(n, h)...)
		n = "n"
	}
	b.line("WHERE %s", strings.Join(append(preds, rest...), " AND "))
	b.line("WITH DISTINCT n")
}

// walk emits the MATCH of pinned test h from the pattern node from, and
// of the tests nested in it that lead to the pin (hop.next), each a
// MATCH of its own as each EXISTS has its own relationships, and returns
// their predicates: each node's label and tenant, the conditions on it
// and its relationship, a nested test being its MATCH instead:
//
//	MATCH (n:Customer)-[r0:PURCHASED]->(m0:Order)
//	MATCH (m0)-[r1:ORDERS]->(m1:Product)
//	WHERE … AND m1.productID = $p0
//
// Neo4j plans consecutive MATCH clauses together, so it starts from the
// index that pins the innermost node and walks back, where EXISTS in
// EXISTS is tested on every node of the label.
func (b *builder) walk(from string, h *hop) []string {
	var chain []*hop
	for ; h != nil; h = h.next {
		chain = append(chain, h)
	}
	return b.walkHops(from, chain)
}

// walkHops emits the MATCH of each hop of chain, each from the previous
// one's related node (the first from the pattern node from), and returns
// their predicates (see walk). A hop's test of the next hop of the chain
// (hop.nextPred) is that hop's MATCH, not a predicate; any other test
// stays one, as in an aggregate's path (pinnedPath), whose hops are not
// nested tests.
func (b *builder) walkHops(from string, chain []*hop) []string {
	var preds []string
	for i, h := range chain {
		b.line("MATCH (%s)%s(%s:%s)", from, h.step, h.m, b.q(h.entity.Name))
		if h.tenant != "" {
			preds = append(preds, h.tenant)
		}
		walked := i+1 < len(chain) && chain[i+1] == h.next
		for _, c := range h.conds {
			if !walked || c != h.nextPred {
				preds = append(preds, c)
			}
		}
		from = h.m
	}
	return preds
}

// matchLabel emits the entity's MATCH with preds, relationship tests
// staying EXISTS: Neo4j starts from the entity's own label or indexes.
func (b *builder) matchLabel(preds []string) {
	b.line("MATCH (n:%s)", b.q(b.e.Name))
	if preds = b.scoped("n", preds); len(preds) > 0 {
		b.line("WHERE %s", strings.Join(preds, " AND "))
	}
}

// statement finishes the builder, or returns the first error met while
// writing it.
func (b *builder) statement(shape Shape) (*Statement, error) {
	if b.err != nil {
		return nil, b.err
	}
	if shape.SortKeys == nil {
		shape.SortKeys = b.sortKeys
	}
	if shape.Pins == nil {
		shape.Pins = b.pins
	}
	if shape.TextOrdered == nil {
		shape.TextOrdered = b.textOrdered
	}
	if shape.PageParam == "" {
		shape.PageParam = b.pageParam
	}
	return &Statement{Cypher: strings.Join(b.lines, "\n"), Params: b.params, Uses: b.uses, Shape: shape}, nil
}

// joinAnd joins predicates with AND.
func joinAnd(preds []string) string {
	out := ""
	for i, p := range preds {
		if i > 0 {
			out += " AND "
		}
		out += p
	}
	return out
}

// typedText is the read of stored field f's property x as f's type: a
// number or integer stored as text is parsed (textvalue.NumberCypher, null
// for a marker or any other text), so every condition, sort, aggregate and
// result reads the number. The conversion hides the property from its
// index: such a field is never index-backed.
func typedText(f *model.Field, x string) string {
	if f.NumberText() {
		return textvalue.NumberCypher(x, f.Type == model.Integer)
	}
	return x
}
