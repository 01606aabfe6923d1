// Package scope proves on Neo4j's plan that an agent-written read stays
// inside one tenant: every node the plan reads from the store is kept only
// when its tenant field equals the bound tenant parameter.
//
// The proof reads the EXPLAIN plan, never the query text. A node enters
// rows only where an operator reads the store (a scan or seek, the new end
// of an Expand(All), both ends of a relationship scan, a procedure
// yielding nodes); everything else only computes from rows already there.
// Each such node variable v must be scoped: an index seek on the tenant
// field with the tenant parameter, or a Filter above the operator whose
// predicate has the top-level conjunct v.field = $tenant, with only
// row-by-row operators between the two (a LIMIT, DISTINCT or aggregation
// in between has already looked at the other tenants' rows). A node hash
// join (Neo4j's choice on some statistics, whatever the statement's text)
// binds its join nodes in both inputs as one variable: one input's proof
// of a join node scopes it in the other's rows (joins.go). Operators the
// check does not know, variable-length patterns, shortest paths, count
// store reads and subquery expressions hidden inside another operator's
// expression are refused, as is a plan in which one printed name stands
// for two variables.
//
// What the proof does not cover: rows are scoped, not the work done to
// find them, so an expression that fails on another tenant's values before
// the tenant conjunct removes them can surface as an error, and timing
// differs; degree functions (getDegree, COUNT { (n)--() } without a
// predicate) count relationships to any node; schema procedures list every
// label, type and key.
package scope

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
)

// Refusal is a plan the check cannot prove scoped; Reason says what to
// change, Variable names the unscoped node variable when there is one.
type Refusal struct {
	Variable string
	Reason   string
}

func (r *Refusal) Error() string { return r.Reason }

// Check proves that every node variable plan reads from the store is
// scoped to the tenant: field is the tenant property (e.g. user_id),
// param the statement parameter holding the tenant (tenant.Param). It
// returns a *Refusal when it cannot.
func Check(plan *readonly.Op, field, param string) error {
	if plan == nil {
		return &Refusal{Reason: "Neo4j returned no plan to check"}
	}
	c := &checker{m: newMatcher(field, param), bound: map[string][]*node{}, provenOf: map[*node]set{}}
	root := c.index(plan, nil)
	c.m.caseNests = !c.caseNamed(root)
	if err := c.unique(); err != nil {
		return err
	}
	return c.walk(root, set{}, map[string]*readonly.Op{})
}

// node is an operator with its parent, for the name check.
type node struct {
	op       *readonly.Op
	parent   *node
	children []*node
}

type checker struct {
	m *matcher
	// bound lists the operators binding each name.
	bound map[string][]*node
	// provenOf memoizes proven.
	provenOf map[*node]set
}

type set map[string]bool

// index builds the parent links and records which operator binds which
// names.
func (c *checker) index(op *readonly.Op, parent *node) *node {
	n := &node{op: op, parent: parent}
	for _, ch := range op.Children {
		n.children = append(n.children, c.index(ch, n))
	}
	bs := c.binds(n)
	slices.Sort(bs)
	for _, v := range slices.Compact(bs) {
		c.bound[v] = append(c.bound[v], n)
	}
	return n
}

// binds returns the names an operator binds: the variables a store read
// introduces, the aliases of a projection, and any identifier its inputs
// do not have.
func (c *checker) binds(n *node) []string {
	op := n.op
	var out []string
	switch kindOf(op.Operator) {
	case nodeLeaf:
		if g := leafVar.FindStringSubmatch(op.Details); g != nil {
			out = append(out, g[1])
		}
		return out
	case relLeaf:
		if h, ok := parseHop(op.Details); ok {
			out = append(out, h.from, h.rel, h.to)
		}
		return out
	case expandAll, optionalExpandAll:
		if h, ok := parseHop(op.Details); ok {
			out = append(out, h.rel, h.to)
		}
	case filter:
		return nil
	case procedure:
		if _, ys, ok := parseProc(op.Details); ok {
			for _, y := range ys {
				out = append(out, y.name)
			}
		}
	default:
		out = append(out, aliases(op.Details)...)
	}
	if len(n.children) == 0 {
		return out
	}
	below := set{}
	for _, ch := range op.Children {
		for _, v := range ch.Identifiers {
			below[v] = true
		}
	}
	for _, v := range op.Identifiers {
		if !below[v] {
			out = append(out, v)
		}
	}
	return out
}

// unique refuses a plan in which one printed name is bound in two inputs
// of an operator that are not alternatives of one UNION nor the two sides
// of a node hash join on that name: Neo4j prints a variable shadowed in a
// subquery under its plain name, so a predicate above both could be about
// either variable.
func (c *checker) unique() error {
	names := slices.Sorted(maps.Keys(c.bound))
	for _, v := range names {
		ns := c.bound[v]
		for i := range ns {
			for j := i + 1; j < len(ns); j++ {
				// One binding above the other is a rebinding, which the walk
				// handles (a filter above it is about the new variable);
				// bindings in two inputs of one operator are ambiguous
				// unless they are alternatives of a UNION or the sides
				// of a join on the name.
				lca := common(ns[i], ns[j])
				if lca != ns[i] && lca != ns[j] && (lca == nil || !isUnion(lca.op.Operator) && !joinsOn(lca, v)) && bothOut(v, lca, ns[i], ns[j]) {
					where := "in two places of its plan"
					if lca != nil {
						where = "in two inputs of " + describe(lca.op)
					}
					return &Refusal{Variable: v, Reason: fmt.Sprintf("the name %s stands for two different variables in this query, bound by %s and by %s %s (a variable of a CALL { … } or an EXISTS { … } reusing an outer name, or a WITH swapping names): give each its own name so the tenant check can tell them apart", v, describe(ns[i].op), describe(ns[j].op), where)}
				}
			}
		}
	}
	return nil
}

// caseNamed reports whether a variable of the plan is named like a
// keyword of CASE expressions.
func (c *checker) caseNamed(n *node) bool {
	for _, v := range n.op.Identifiers {
		switch strings.ToUpper(v) {
		case "CASE", "WHEN", "THEN", "ELSE", "END":
			return true
		}
	}
	return slices.ContainsFunc(n.children, c.caseNamed)
}

// bothOut reports whether v leaves both inputs of lca that hold the
// bindings a and b: when one input has dropped it (an aggregation, a
// subquery that does not return it), every use of v above lca and in the
// other input is the other binding's, so the two are not confused.
func bothOut(v string, lca, a, b *node) bool {
	return slices.Contains(below(lca, a).op.Identifiers, v) && slices.Contains(below(lca, b).op.Identifiers, v)
}

// below returns the child of anc that n is in (n itself when it is one).
func below(anc, n *node) *node {
	for n.parent != anc {
		n = n.parent
	}
	return n
}

func isUnion(op string) bool { return op == "Union" || op == "OrderedUnion" }

// common returns the lowest common ancestor of a and b.
func common(a, b *node) *node {
	seen := map[*node]bool{}
	for n := a; n != nil; n = n.parent {
		seen[n] = true
	}
	for n := b; n != nil; n = n.parent {
		if seen[n] {
			return n
		}
	}
	return nil
}

// walk checks n and below. scoped holds the variables a filter above n
// keeps in the tenant with only row-by-row operators in between; late
// holds those a filter above kept too late, each with the operator it came
// after (a barrier, or the semi-apply whose deciding input n is in), for
// the error message.
func (c *checker) walk(n *node, scoped set, late map[string]*readonly.Op) error {
	op := n.op
	if loc := nestedPlan.FindStringIndex(op.Details); loc != nil {
		return &Refusal{Reason: fmt.Sprintf("%s evaluates %q inside an expression (e.g. within CASE), where the nodes it reads cannot be checked: write it as its own MATCH, OPTIONAL MATCH, WHERE EXISTS { … } or CALL { … } step", op.Operator, op.Details[loc[0]:loc[1]])}
	}
	need := func(v, how string, extra set) error {
		if scoped[v] || extra[v] {
			return nil
		}
		return c.unscoped(v, op, how, late[v])
	}
	switch kindOf(op.Operator) {
	case unknown:
		return &Refusal{Reason: fmt.Sprintf("Neo4j plans this query with the operator %s, which the tenant check does not know; rewrite the query with plain MATCH / OPTIONAL MATCH patterns", describe(op))}
	case refused:
		// A variable-length search that keeps every node of its path in
		// the tenant introduces only scoped nodes.
		if strings.Contains(op.Operator, "CountStore") || !c.m.pathScoped(op.Details) {
			return c.refuse(op)
		}
	case nodeLeaf:
		g := leafVar.FindStringSubmatch(op.Details)
		if g == nil || !slices.Contains(op.Identifiers, g[1]) {
			return &Refusal{Reason: fmt.Sprintf("cannot read the node variable of %s", describe(op))}
		}
		if v, ok := c.m.seekScoped(op.Details); ok && v == g[1] && isSeek(op.Operator) {
			return nil
		}
		return need(g[1], "", nil)
	case relLeaf:
		h, ok := parseHop(op.Details)
		if !ok {
			return &Refusal{Reason: fmt.Sprintf("cannot read the pattern of %s", describe(op))}
		}
		if err := need(h.from, h.text, nil); err != nil {
			return err
		}
		return need(h.to, h.text, nil)
	case expandAll, optionalExpandAll:
		h, ok := parseHop(op.Details)
		if !ok {
			return &Refusal{Reason: fmt.Sprintf("cannot read the pattern of %s", describe(op))}
		}
		extra := set{}
		for _, v := range c.m.scoped(h.where) {
			extra[v] = true
		}
		// The new node is the pattern's far end; any other identifier the
		// input lacks (but the relationship) is new as well.
		news := []string{h.to}
		for _, v := range c.binds(n) {
			if v != h.rel && v != h.to {
				news = append(news, v)
			}
		}
		for _, v := range news {
			if err := need(v, h.text, extra); err != nil {
				return err
			}
		}
	case endpoints:
		h, ok := parseHop(op.Details)
		if !ok {
			return &Refusal{Reason: fmt.Sprintf("cannot read the pattern of %s", describe(op))}
		}
		for _, v := range []string{h.from, h.to} {
			if !slices.Contains(identifiers(n.children), v) {
				if err := need(v, h.text, nil); err != nil {
					return err
				}
			}
		}
	case procedure:
		if err := c.procedure(op, need); err != nil {
			return err
		}
	case filter:
		scoped = maps.Clone(scoped)
		for _, v := range c.m.scoped(op.Details) {
			scoped[v] = true
		}
	}
	// Passing below the operator: names it binds are other variables down
	// there; a barrier or the deciding input of a semi-apply gets no
	// filter from above.
	below := scoped
	if bs := c.binds(n); len(bs) > 0 {
		below = maps.Clone(scoped)
		for _, v := range bs {
			delete(below, v)
		}
	}
	for i, ch := range n.children {
		s, l := below, late
		switch k := kindOf(op.Operator); {
		case k == barrier, k == semi && i > 0:
			s, l = set{}, maps.Clone(late)
			for v := range below {
				l[v] = op
			}
		}
		if err := c.walk(ch, c.joined(n, i, s), l); err != nil {
			return err
		}
	}
	return nil
}

func isSeek(op string) bool { return op == "NodeIndexSeek" || op == "NodeUniqueIndexSeek" }

// procedure checks a procedure call's yields: a node must be scoped, and
// relationships, paths, lists, maps and values of any type may hold nodes
// the plan never shows.
func (c *checker) procedure(op *readonly.Op, need func(v, how string, extra set) error) error {
	proc, yields, ok := parseProc(op.Details)
	if !ok {
		return &Refusal{Reason: fmt.Sprintf("cannot read the procedure call %s", describe(op))}
	}
	if relSearches[proc] {
		return &Refusal{Reason: fmt.Sprintf("%s returns relationships whose end nodes cannot be checked against the tenant; search nodes instead (db.index.fulltext.queryNodes, db.index.vector.queryNodes)", proc)}
	}
	node := false
	for _, y := range yields {
		t := strings.ToUpper(y.typ)
		switch {
		case t == "NODE" || t == "NODE?":
			node = true
			if err := need(y.name, proc, nil); err != nil {
				return err
			}
		case strings.Contains(t, "NODE"), strings.Contains(t, "RELATIONSHIP"), strings.Contains(t, "PATH"), strings.Contains(t, "MAP"), strings.Contains(t, "ANY"):
			return &Refusal{Variable: y.name, Reason: fmt.Sprintf("%s yields %s :: %s, which may hold nodes the tenant check cannot see; only procedures yielding plain values or single nodes (scoped with WHERE) are allowed", proc, y.name, y.typ)}
		}
	}
	if nodeSearches[proc] && !node {
		return &Refusal{Reason: fmt.Sprintf("%s searches every tenant's nodes: YIELD node and add WHERE node.%s = $%s", proc, c.m.field, c.m.param)}
	}
	return nil
}

func (c *checker) refuse(op *readonly.Op) error {
	switch {
	case strings.Contains(op.Operator, "CountStore"):
		return &Refusal{Reason: fmt.Sprintf("%s counts every tenant's nodes or relationships at once: match them with WHERE x.%s = $%s and count those", describe(op), c.m.field, c.m.param)}
	case strings.Contains(op.Operator, "hortest"):
		return &Refusal{Reason: fmt.Sprintf("shortest paths are refused (%s): their inner nodes cannot be checked against the tenant; match each hop as its own pattern with WHERE x.%s = $%s", describe(op), c.m.field, c.m.param)}
	}
	return &Refusal{Reason: fmt.Sprintf("variable-length patterns are refused (%s): their inner nodes cannot be checked against the tenant; match each hop as its own pattern with WHERE x.%s = $%s", describe(op), c.m.field, c.m.param)}
}

// unscoped is the refusal for a node variable no filter scopes; after is
// the operator a tenant predicate on it came too late after, if any.
func (c *checker) unscoped(v string, op *readonly.Op, how string, after *readonly.Op) error {
	where := op.Operator
	if how == "" {
		how = op.Details
	}
	if how != "" {
		where += " on " + how
	}
	fix := fmt.Sprintf("add WHERE %s.%s = $%s", v, c.m.field, c.m.param)
	subject := "node variable " + v
	if strings.HasPrefix(v, "anon_") || strings.HasPrefix(v, "  ") {
		subject = "an unnamed node (" + strings.TrimSpace(v) + ")"
		fix = fmt.Sprintf("name it, e.g. (x), and add WHERE x.%s = $%s", c.m.field, c.m.param)
	}
	msg := fmt.Sprintf("%s (introduced by %s) is not scoped to the tenant: %s", subject, where, fix)
	switch {
	case after == nil:
	case kindOf(after.Operator) == semi:
		msg += fmt.Sprintf(" inside the subquery that reads it (Neo4j plans it as the deciding input of %s: an EXISTS { … }, COUNT { … }, COLLECT { … } or pattern comprehension), not outside it: a tenant predicate outside comes too late", describe(after))
	default:
		msg += fmt.Sprintf(" where it is read, before %s: a tenant predicate after a LIMIT, SKIP, ORDER BY … LIMIT, DISTINCT, aggregation or OPTIONAL MATCH comes too late, as they have already looked at other tenants' rows", describe(after))
	}
	return &Refusal{Variable: v, Reason: msg}
}

func describe(op *readonly.Op) string {
	if op.Details == "" {
		return op.Operator
	}
	return op.Operator + " (" + op.Details + ")"
}

func identifiers(ns []*node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.op.Identifiers...)
	}
	return out
}
