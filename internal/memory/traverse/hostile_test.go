package traverse_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A query is one Cypher text an agent might send as alice, with its
// parameters; legit queries scope every node they read.
type query struct {
	cypher string
	params map[string]any
	legit  bool
}

// predicate writes a WHERE condition about variable v.
type predicate func(v string) string

// scopedForms keep v in the tenant.
var scopedForms = []predicate{
	func(v string) string { return v + ".user_id = $tenant" },
	func(v string) string { return "$tenant = " + v + ".user_id" },
}

// unscopedForms look like scoping, or nearly, and are not (or are, in a
// form the check need not recognise).
var unscopedForms = []predicate{
	func(v string) string { return "true" },
	func(v string) string { return v + ".user_id <> $tenant" },
	func(v string) string { return "NOT " + v + ".user_id = $tenant" },
	func(v string) string { return v + ".user_id = $tenant OR true" },
	func(v string) string { return v + ".user_id = $tenant OR " + v + ".age > 0" },
	func(v string) string { return v + ".user_id = $tenant XOR " + v + ".age > 100" },
	func(v string) string { return "(" + v + ".user_id = $tenant) = true" },
	func(v string) string { return v + ".user_id = $p0" },
	func(v string) string { return v + ".user_id IN [$tenant, 'bob']" },
	func(v string) string { return v + ".user_id STARTS WITH 'b'" },
	func(v string) string { return v + ".user_id = 'bob'" },
	func(v string) string { return v + ".user_id IS NOT NULL" },
	func(v string) string { return v + ".name = 'x AND " + v + ".user_id = $tenant'" },
	func(v string) string { return v + ".name <> 'x'' AND " + v + ".user_id = $tenant AND ''y'" },
	func(v string) string {
		return "CASE WHEN " + v + ".age > 0 THEN true ELSE " + v + ".user_id = $tenant END"
	},
	func(v string) string {
		return "CASE WHEN " + v + ".age > 0 THEN true ELSE false AND " + v + ".user_id = $tenant AND true END"
	},
	func(v string) string { return "coalesce(" + v + ".user_id = $tenant, true)" },
	func(v string) string { return v + ".user_id = $tenant /* AND */ OR true" },
	func(v string) string { return v + ".user_id =~ '.*'" },
	func(v string) string { return "$tenant = $tenant" },
	func(v string) string { return v + ".user_id = " + v + ".user_id" },
	func(v string) string { return "NOT (" + v + ".user_id <> $tenant)" },
	func(v string) string { return "any(x IN [1] WHERE " + v + ".user_id = $tenant)" },
	func(v string) string { return v + ".user_id = $tenant OR " + v + ".user_id = 'bob'" },
	func(v string) string { return v + ".user_id = $tenant AND false OR true" },
	func(v string) string { return v + ".user_id > ''" },
	func(v string) string { return "(" + v + ".user_id = $tenant OR true) AND " + v + ".age > 0" },
	func(v string) string { return v + ".user_id = $tenant = false" },
	func(v string) string { return v + ".`user_id` = $`tenant` OR true" },
}

// template builds a query from one predicate per variable it names.
type template struct {
	vars []string
	// legit says the text keeps every node in the tenant when each
	// variable's predicate scopes it.
	legit bool
	text  func(p map[string]string) string
}

var labels = []string{"", ":Person", ":Concept", ":Person|Concept"}

// templates are the shapes the hostile texts take: every clause an agent
// could use to reach a node, with a predicate slot per node variable.
func templates(bobID int64, bobElementID string) []template {
	t := func(vars string, legit bool, f func(p map[string]string) string) template {
		return template{vars: strings.Fields(vars), legit: legit, text: f}
	}
	var out []template
	for _, l := range labels {
		out = append(out,
			t("a", true, func(p map[string]string) string { return "MATCH (a" + l + ") WHERE " + p["a"] + " RETURN a" }),
			t("a", true, func(p map[string]string) string {
				return "MATCH (a" + l + ") WHERE " + p["a"] + " RETURN a.name AS name, a.marker AS marker ORDER BY name"
			}),
			t("a", true, func(p map[string]string) string {
				return "MATCH (a" + l + ") WHERE " + p["a"] + " AND a.marker > '' RETURN DISTINCT labels(a) AS l, count(*) AS c"
			}),
		)
	}
	return append(out,
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person)-[r]->(b) WHERE " + p["a"] + " AND " + p["b"] + " RETURN a.name, type(r), r.note, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person)-[r:KNOWS]-(b:Person) WHERE " + p["a"] + " AND " + p["b"] + " RETURN a, r, b"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " OPTIONAL MATCH (a)-[r]->(b) WHERE " + p["b"] + " RETURN a.name, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN a.marker AS m UNION MATCH (b:Concept) WHERE " + p["b"] + " RETURN b.marker AS m"
		}),
		t("a", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN a.marker AS m UNION ALL MATCH (a:Concept) WHERE " + p["a"] + " RETURN a.marker AS m"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " CALL { MATCH (b:Concept) WHERE " + p["b"] + " RETURN b } RETURN a.name, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " CALL (a) { MATCH (a)-->(b) WHERE " + p["b"] + " RETURN b } RETURN a.name, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " AND EXISTS { MATCH (a)-->(b) WHERE " + p["b"] + " AND b.marker STARTS WITH 'BOB' } RETURN a.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " AND EXISTS { MATCH (b) WHERE " + p["b"] + " AND b.marker STARTS WITH 'BOB' } RETURN a.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN a.name, COUNT { MATCH (b) WHERE " + p["b"] + " } AS c"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN [(a)-[]-(b) WHERE " + p["b"] + " | b.marker] AS ms"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN COLLECT { MATCH (b:Concept) WHERE " + p["b"] + " RETURN b.marker } AS ms"
		}),
		t("a b", false, func(p map[string]string) string {
			return "MATCH (a:Person)-[*1..2]-(b) WHERE " + p["a"] + " AND " + p["b"] + " RETURN b.marker"
		}),
		t("a b", false, func(p map[string]string) string {
			return "MATCH p = shortestPath((a:Person)-[*..3]-(b:Concept)) WHERE " + p["a"] + " AND " + p["b"] + " RETURN [x IN nodes(p) | x.marker] AS ms"
		}),
		// Variable-length searches are scoped only by a predicate on every
		// node of their path, which the search itself applies.
		t("a x", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " MATCH path = (a)-[*1..3]-(b) WHERE all(x IN nodes(path) WHERE " + p["x"] + ") RETURN b.marker"
		}),
		t("a b x", true, func(p map[string]string) string {
			return "MATCH (a:Person), (b:Concept) WHERE " + p["a"] + " AND " + p["b"] + " MATCH path = shortestPath((a)-[*..4]-(b)) WHERE all(x IN nodes(path) WHERE " + p["x"] + ") RETURN [n IN nodes(path) | n.marker] AS ms"
		}),
		t("a", true, func(p map[string]string) string {
			return fmt.Sprintf("MATCH (a) WHERE id(a) = %d AND %s RETURN a.marker", bobID, p["a"])
		}),
		t("a", true, func(p map[string]string) string {
			return fmt.Sprintf("MATCH (a) WHERE elementId(a) = '%s' AND %s RETURN a", bobElementID, p["a"])
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a)-[r]->(b) WHERE " + p["a"] + " AND " + p["b"] + " RETURN r.note, endNode(r).marker, startNode(r).marker"
		}),
		t("a", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " WITH collect(a) AS xs UNWIND xs AS y RETURN y.marker"
		}),
		t("y", false, func(p map[string]string) string {
			return "MATCH (a) WITH collect(a) AS xs UNWIND xs AS y WITH y WHERE " + p["y"] + " RETURN y.marker"
		}),
		t("a", true, func(p map[string]string) string {
			return "MATCH (a) WHERE " + p["a"] + " RETURN count(a) AS c, collect(a.marker) AS ms"
		}),
		t("a", false, func(p map[string]string) string {
			return "MATCH (a) WITH a ORDER BY a.marker LIMIT 1 WHERE " + p["a"] + " RETURN a.marker"
		}),
		t("a", false, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " CALL { MATCH (a) RETURN a AS k } WITH a, k WHERE " + p["a"] + " RETURN k.marker"
		}),
		t("a b", false, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " MATCH (b:Concept) WITH a AS b, b AS a WHERE " + p["a"] + " AND " + p["b"] + " RETURN a.marker, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person), (b:Concept) WHERE " + p["a"] + " AND " + p["b"] + " RETURN a.marker, b.marker ORDER BY a.marker, b.marker LIMIT 50"
		}),
		t("node", true, func(p map[string]string) string {
			return "CALL db.index.fulltext.queryNodes('names', 'BOBSECRET OR alice') YIELD node, score WHERE " + p["node"] + " RETURN node.marker, score"
		}),
		t("a", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN a{.*} AS props, properties(a) AS p2, keys(a) AS ks"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person)-[r:THINKS_ABOUT]->(b) WHERE " + p["a"] + " AND " + p["b"] + " RETURN b.embedding AS e, b"
		}),
		t("a b c", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " WITH a MATCH (a)-[:KNOWS]->(b)-[:KNOWS]->(c) WHERE " + p["b"] + " AND " + p["c"] + " RETURN c.marker"
		}),
		t("a b c", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " OPTIONAL MATCH (a)-[:KNOWS]->(b)-[:KNOWS]->(c) WHERE " + p["b"] + " AND " + p["c"] + " RETURN a.marker, c.marker"
		}),
		t("a b", false, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " RETURN CASE WHEN a.age > 0 THEN COLLECT { MATCH (b) WHERE " + p["b"] + " RETURN b.marker } ELSE [] END AS ms"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " WITH a, [(a)-->(b) WHERE " + p["b"] + " | b] AS bs UNWIND bs AS b2 RETURN b2.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " MATCH (b:Person) WHERE " + p["b"] + " AND b.age = a.age + 1 RETURN a.marker, b.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " AND NOT EXISTS { MATCH (a)-[:KNOWS]->(b) WHERE " + p["b"] + " } RETURN a.marker"
		}),
		t("a b", true, func(p map[string]string) string {
			return "MATCH (a:Person) WHERE " + p["a"] + " WITH a MATCH (b) WHERE " + p["b"] + " AND (a)-->(b) RETURN b.marker"
		}),
	)
}

// mutations rewrite a whole text the ways an agent might try to slip past
// a text-level check: comments, precedence, parameters, wrappers.
var mutations = []func(string) string{
	func(s string) string { return strings.Replace(s, "$tenant", "$p0", 1) },
	func(s string) string { return strings.Replace(s, " WHERE ", " WHERE true OR ", 1) },
	func(s string) string { return strings.Replace(s, " AND ", " OR ", 1) },
	func(s string) string {
		return strings.Replace(s, " WHERE ", " /* a.user_id = $tenant AND */ WHERE ", 1)
	},
	func(s string) string {
		return strings.Replace(s, " RETURN ", " // WHERE a.user_id = $tenant\n RETURN ", 1)
	},
	func(s string) string { return "CYPHER 5 " + s },
	func(s string) string { return "CALL { " + s + " } RETURN *" },
	func(s string) string { return "EXPLAIN " + s },
	func(s string) string { return s + "; MATCH (n) RETURN n" },
	func(s string) string { return strings.Replace(s, "MATCH", "OPTIONAL MATCH", 1) },
	func(s string) string { return strings.Replace(s, "RETURN", "WITH * LIMIT 100 RETURN", 1) },
	func(s string) string { return strings.Replace(s, "(a", "(a:Person|Concept", 1) },
	func(s string) string { return strings.ReplaceAll(s, "$tenant", "$`tenant`") },
	func(s string) string { return strings.Replace(s, " AND ", " AND NOT ", 1) },
	func(s string) string { return strings.Replace(s, "-[r]->", "-[r*1..2]->", 1) },
	func(s string) string { return strings.Replace(s, "RETURN", "WITH * ORDER BY rand() LIMIT 3 RETURN", 1) },
}

// fixed are hostile texts that fit no template: writes, procedures,
// counts, loaders, parameters named tenant.
func fixed() []query {
	q := func(s string) query { return query{cypher: s} }
	return []query{
		q("MATCH (a) SET a.user_id = $tenant RETURN a"),
		q("CREATE (a:Person {user_id: $tenant, marker: 'x'}) RETURN a"),
		q("MATCH (a {user_id: $tenant}) DETACH DELETE a"),
		q("MERGE (a:Person {user_id: $tenant, name: 'x'}) RETURN a"),
		q("MATCH (a) WHERE a.user_id = $tenant FOREACH (x IN [1] | SET a.y = 1)"),
		q("LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l"),
		q("CALL db.schema.visualization()"),
		q("MATCH (a:Person {user_id: $tenant}) CALL apoc.path.expand(a, '', '', 1, 3) YIELD path RETURN path"),
		q("MATCH (a:Person {user_id: $tenant}) CALL apoc.path.subgraphNodes(a, {}) YIELD node RETURN node.marker"),
		q("CALL apoc.cypher.run('MATCH (n) RETURN n.marker AS m', {}) YIELD value RETURN value"),
		q("RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) RETURN collect(n.marker)', {}) AS x"),
		q("CALL db.index.fulltext.queryRelationships('names', 'BOBSECRET') YIELD relationship RETURN relationship"),
		q("CALL db.index.fulltext.queryNodes('names', 'BOBSECRET') YIELD score RETURN score"),
		q("CALL db.index.fulltext.queryNodes('names', 'BOBSECRET') YIELD node RETURN node.marker"),
		q("MATCH (n:Person) RETURN count(n)"),
		q("MATCH ()-[r]->() RETURN count(r)"),
		q("MATCH (n) RETURN count(*)"),
		q("MATCH ()-[r]->() RETURN r.note"),
		q("MATCH (a)-[r]->() WHERE a.user_id = $tenant RETURN r.note"),
		q("MATCH (a:Person {user_id: $tenant})-[r]->(b:Concept {user_id: $p0}) RETURN b.marker"),
		q("MATCH (a:Person {user_id: $tenant})-[r]->(b:Concept {user_id: 'bob'}) RETURN b.marker"),
		q("MATCH (a:Person {user_id: $tenant})-[r]->(b:Concept {user_id: $tenant + ''}) RETURN b.marker"),
		q("CALL dbms.components() YIELD name RETURN name"),
		q("SHOW DATABASES"),
		q("MATCH (a) WHERE a.user_id = $tenant CALL { WITH a MATCH (b) RETURN b } RETURN b.marker"),
		q("MATCH (a:Person {user_id: $tenant}) RETURN a, apoc.node.degree(a) AS d"),
		q("MATCH (a:Person {user_id: $tenant}) MATCH (b) WHERE b.age = a.age RETURN b.marker"),
		q("MATCH (a) WHERE a.user_id = $tenant RETURN a.marker // ' OR true"),
		q("MATCH (a) WHERE a.user_id = $tenant RETURN a.marker UNION MATCH (a) RETURN a.marker"),
		q("MATCH (a) WHERE a.user_id = $tenant WITH a MATCH (a)-[*]->(b) RETURN b.marker"),
		q("MATCH (a:Person {user_id: $tenant}) RETURN [x IN range(1, 3) | x] AS xs, a.marker"),
		q("UNWIND [1, 2] AS i MATCH (a) WHERE id(a) = i RETURN a.marker"),
		q("MATCH (a) WHERE a.user_id = $tenant RETURN a.marker AS `a.user_id = $tenant`"),
		q("MATCH (`a.user_id = $tenant`) RETURN `a.user_id = $tenant`.marker"),
		q("MATCH (case) WHERE case.user_id = $tenant AND case IS NOT NULL OR case.age > 0 RETURN case.marker"),
		q("MATCH (a:Person {user_id: $tenant}) WITH a MATCH (b:Person {user_id: $tenant}) WHERE a <> b CALL { MATCH (c) RETURN c LIMIT 1 } RETURN c.marker"),
		{cypher: "MATCH (a) WHERE a.user_id = $tenant RETURN a.marker", params: map[string]any{"tenant": "bob"}},
		{cypher: "MATCH (a:Person) WHERE a.user_id = $tenant RETURN a.marker", params: map[string]any{"tenant": "bob", "p0": "bob"}},
		q("CALL db.labels() YIELD label RETURN label"),
		q("RETURN 1 AS x"),
	}
}

// hostile generates n distinct texts from the templates (each variable
// scoped or not at random, then possibly mutated), after the fixed ones;
// legit are the texts whose every variable is scoped, unmutated.
func hostile(seed uint64, n int, bobID int64, bobElementID string) (texts, legit []query) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	add := func(q query) {
		if !seen[q.cypher] {
			seen[q.cypher] = true
			texts = append(texts, q)
		}
	}
	for _, q := range fixed() {
		add(q)
	}
	ts := templates(bobID, bobElementID)
	for _, t := range ts {
		if !t.legit {
			continue
		}
		for _, f := range scopedForms {
			p := map[string]string{}
			for _, v := range t.vars {
				p[v] = f(v)
			}
			legit = append(legit, query{cypher: t.text(p), legit: true})
		}
	}
	for tries := 0; len(texts) < n && tries < 50*n; tries++ {
		t := ts[rng.IntN(len(ts))]
		p := map[string]string{}
		for _, v := range t.vars {
			if rng.IntN(3) == 0 {
				p[v] = scopedForms[rng.IntN(len(scopedForms))](v)
			} else {
				p[v] = unscopedForms[rng.IntN(len(unscopedForms))](v)
			}
		}
		s := t.text(p)
		for rng.IntN(3) == 0 {
			s = mutations[rng.IntN(len(mutations))](s)
		}
		q := query{cypher: s}
		if rng.IntN(20) == 0 {
			q.params = map[string]any{"tenant": "bob"}
		}
		add(q)
	}
	return texts, legit
}
