package tree

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// Kinds of tree nodes: a directory is a node of an entity that contains
// other tree nodes, a file one of an entity that does not.
const (
	KindDirectory = "directory"
	KindFile      = "file"
)

// MaxFetchNodes is the most nodes one call reads (Runner.maxNodes).
const MaxFetchNodes = 500000

// errTooLarge is the read stopping at Runner.maxNodes.
var errTooLarge = errors.New("the part of the tree under the path patterns' common directory is too large to read at once")

// Node is one node of the tree as read from Neo4j.
type Node struct {
	Path   string
	Entity string
	Kind   string
	// Size is nil when the node's entity has no size field or the node no
	// value.
	Size     *int64
	Language string
	// Parent is the path of the container holding the node ("" for none
	// among the fetched nodes).
	Parent string
}

// Name is the last element of the node's path, its label in a diagram.
func (n *Node) Name() string {
	p := strings.TrimRight(n.Path, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return n.Path
}

// statement is the read statement of a tree: the nodes of every node
// entity (all of them, or those at or below a root path), each with its
// entity and its container.
type statement struct {
	all, under string
	containers []string
}

// compile writes the tree's read statements. Every name comes from the
// validated config through ident.Quote; the root path, the entity names
// and the tenant are parameters. When the config declares a tenant, every
// node the statement reads — each tree node and each container it looks
// up — must carry the tenant field = $tenant, as in the planner's
// statements: a tree is the bound tenant's files, never another's.
func compile(m *model.Model, t *model.Tree) (*statement, error) {
	names := append([]string{t.Contains, t.Path}, t.Nodes...)
	for _, f := range []string{t.Size, t.Language} {
		if f != "" {
			names = append(names, f)
		}
	}
	if m.Tenant != nil {
		names = append(names, m.Tenant.Field)
	}
	q := map[string]string{}
	for _, n := range names {
		s, err := ident.Quote(n)
		if err != nil {
			return nil, fmt.Errorf("tree %s: %w", t.Name, err)
		}
		q[n] = s
	}
	var st statement
	for _, name := range t.Nodes {
		e := m.Entity(name)
		if e == nil {
			return nil, fmt.Errorf("tree %s: node entity %s is not declared", t.Name, name)
		}
		if holds(e, t) {
			st.containers = append(st.containers, name)
		}
	}
	if len(st.containers) == 0 {
		return nil, fmt.Errorf("tree %s: no node entity contains another through %s", t.Name, t.Contains)
	}
	// scoped is the tenant predicate on node variable v ("" without a
	// tenant).
	scoped := func(v string) string {
		if m.Tenant == nil {
			return ""
		}
		return v + "." + q[m.Tenant.Field] + " = $" + tenant.Param
	}
	path := q[t.Path]
	var parents []string
	for _, name := range st.containers {
		parents = append(parents, "p:"+q[name])
	}
	parent := strings.Join(parents, " OR ")
	if c := scoped("p"); c != "" {
		parent = "(" + parent + ") AND " + c
	}
	write := func(under bool) string {
		var where []string
		if c := scoped("n"); c != "" {
			where = append(where, c)
		}
		if under {
			where = append(where, "(n."+path+" = $root OR n."+path+" STARTS WITH $below)")
		}
		cond := ""
		if len(where) > 0 {
			cond = " WHERE " + strings.Join(where, " AND ")
		}
		var branches []string
		for i, name := range t.Nodes {
			e := m.Entity(name)
			size, lang := "null", "null"
			if t.Size != "" && e.Field(t.Size) != nil {
				size = "n." + q[t.Size]
			}
			if t.Language != "" && e.Field(t.Language) != nil {
				lang = "n." + q[t.Language]
			}
			branches = append(branches, fmt.Sprintf("  MATCH (n:%s)%s\n  RETURN n, n.%s AS path, $e%d AS entity, %s AS size, %s AS language",
				q[name], cond, path, i, size, lang))
		}
		return "CALL () {\n" + strings.Join(branches, "\n  UNION ALL\n") + "\n}\n" +
			"OPTIONAL MATCH (p)-[:" + q[t.Contains] + "]->(n) WHERE " + parent + "\n" +
			"RETURN path, entity, size, language, p." + path + " AS parent"
	}
	st.all = write(false)
	st.under = write(true)
	return &st, nil
}

// holds reports whether e declares the tree's contains relationship towards
// a tree node entity.
func holds(e *model.Entity, t *model.Tree) bool {
	for _, r := range e.Relationships {
		if r.Type != t.Contains || r.Direction == model.Incoming {
			continue
		}
		for _, target := range r.Targets {
			if slices.Contains(t.Nodes, target) {
				return true
			}
		}
	}
	return false
}

// query returns the statement for a root path ("" for the whole tree),
// adding its parameters to p (which holds the call's tenant, see
// [Runner.params]).
func (st *statement) query(t *model.Tree, root string, p map[string]any) (string, map[string]any) {
	for i, name := range t.Nodes {
		p["e"+strconv.Itoa(i)] = name
	}
	if root == "" {
		return st.all, p
	}
	p["root"], p["below"] = root, root+"/"
	return st.under, p
}

// fetch reads the nodes at or below root in one read transaction.
func (r *Runner) fetch(ctx context.Context, tr *compiledTree, root string) ([]*Node, error) {
	p, err := r.params(ctx)
	if err != nil {
		return nil, err
	}
	cypher, params := tr.st.query(tr.t, root, p)
	out, err := neo4jtx.Read(ctx, r.env.Driver, r.env.Database, r.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return nil, err
		}
		var nodes []*Node
		seen := map[string]bool{}
		for res.Next(ctx) {
			if len(nodes) == r.maxNodes {
				return nil, errTooLarge
			}
			vals := res.Record().Values
			path, _ := vals[0].(string)
			if path == "" || seen[path] {
				continue // a node without a path cannot be placed; a node under two labels once
			}
			seen[path] = true
			n := &Node{Path: path, Kind: KindFile}
			n.Entity, _ = vals[1].(string)
			if slices.Contains(tr.st.containers, n.Entity) {
				n.Kind = KindDirectory
			}
			switch v := vals[2].(type) {
			case int64:
				n.Size = &v
			case float64:
				s := int64(v)
				n.Size = &s
			}
			if s, ok := vals[3].(string); ok {
				n.Language = s
			}
			n.Parent, _ = vals[4].(string)
			nodes = append(nodes, n)
		}
		return nodes, res.Err()
	})
	if errors.Is(err, errTooLarge) {
		return nil, fmt.Errorf("%w: more than %d nodes", errTooLarge, r.maxNodes)
	}
	if err != nil {
		return nil, fmt.Errorf("tree: reading tree %s: %w", tr.t.Name, err)
	}
	return out.([]*Node), nil
}
