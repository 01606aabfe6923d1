package scope

import (
	"regexp"
	"strings"
)

// pathName reads the path variable a variable-length expansion or a
// shortest path binds, printed first in its details: "(p = (a)-[…]->(b) …".
var pathName = regexp.MustCompile(`^\(?(` + name + `) = `)

// allNodes matches a conjunct "all(x IN nodes(p) WHERE pred)"; the groups
// are x, p and pred.
var allNodes = regexp.MustCompile(`^all\((` + name + `) IN nodes\((` + name + `)\) WHERE (.*)\)$`)

// pathScoped reports whether the details of a variable-length expansion or
// shortest path carry, as a top-level conjunct of the predicate Neo4j
// evaluates during the search, "all(x IN nodes(p) WHERE x.field = $param)"
// on the path p it binds. Neo4j yields no path with a node outside the
// tenant then, so every node it introduces (the far end and the inner
// nodes) is scoped.
func (m *matcher) pathScoped(details string) bool {
	g := pathName.FindStringSubmatch(details)
	if g == nil {
		return false
	}
	where, ok := searchPredicate(details)
	if !ok {
		return false
	}
	for _, c := range conjuncts(where, m.caseNests) {
		a := allNodes.FindStringSubmatch(c)
		if a == nil || a[2] != g[1] {
			continue
		}
		for _, v := range m.scoped(a[3]) {
			if v == a[1] {
				return true
			}
		}
	}
	return false
}

// anonSuffix is the name of the pruning expansion's end variable Neo4j
// prints after the predicate.
var anonSuffix = regexp.MustCompile(`\s+anon_\d+$`)

// searchPredicate returns the text after the top-level " WHERE " of the
// details (not one inside a list predicate, a pattern or a string), to
// their end; details wrapped in one pair of parentheses are unwrapped
// first.
func searchPredicate(details string) (string, bool) {
	if w, ok := topLevelWhere(details); ok {
		return w, true
	}
	if strings.HasPrefix(details, "(") && strings.HasSuffix(details, ")") {
		return topLevelWhere(details[1 : len(details)-1])
	}
	return "", false
}

func topLevelWhere(details string) (string, bool) {
	at := -1
	scan(details, func(i, depth int) bool {
		if depth == 0 && strings.HasPrefix(details[i:], " WHERE ") {
			at = i
			return false
		}
		return true
	})
	if at < 0 {
		return "", false
	}
	rest := details[at+len(" WHERE "):]
	return anonSuffix.ReplaceAllString(strings.TrimSpace(rest), ""), balanced(rest)
}

// balanced reports whether s closes every bracket and string it opens.
func balanced(s string) bool {
	ok := true
	depth, quote := scan(s, func(_, depth int) bool {
		ok = depth >= 0
		return ok
	})
	return ok && depth == 0 && quote == 0
}

// scan walks s outside strings and backquoted names, calling visit with
// each position and the bracket depth there until visit returns false; it
// returns the depth and the open quote at the end.
func scan(s string, visit func(i, depth int) bool) (int, byte) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == '\\' && quote != '`' {
				i++
			} else if ch == quote {
				quote = 0
			}
			continue
		case ch == '\'' || ch == '"' || ch == '`':
			quote = ch
			continue
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		}
		if !visit(i, depth) {
			break
		}
	}
	return depth, quote
}
