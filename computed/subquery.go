package computed

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

// Subquery is the CALL clause that computes a raw `cypher:` field for the
// node bound to variable node. The body runs in a variable-scope subquery
// that sees only the node (as n), must return one column named like the
// field, and is wrapped so that the outer row is always kept: zero rows or
// several rows give null, exactly one row gives its value. The value is
// bound to [Alias](node, field).
//
//	CALL (n) { CALL (n) {
//	<body>
//	} WITH collect([`field`]) AS __rf_rows RETURN CASE size(__rf_rows) WHEN 1 THEN __rf_rows[0][0] END AS `__rf_n_field` }
func (f *Field) Subquery(node string) (string, error) {
	if f.Config.Cypher == "" {
		return "", fmt.Errorf("%s.%s is not a cypher field", f.ent.Name, f.Config.Name)
	}
	if err := checkCypherBody(f.Config.Cypher); err != nil {
		return "", fmt.Errorf("%s.%s: %s", f.ent.Name, f.Config.Name, err.Msg)
	}
	if !plainVar.MatchString(node) {
		return "", fmt.Errorf("node variable %q is not a plain identifier", node)
	}
	col, err := ident.Quote(f.Config.Name)
	if err != nil {
		return "", err
	}
	alias, err := ident.Quote(Alias(node, f.Config.Name))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CALL (%s) { ", node)
	if node != "n" {
		fmt.Fprintf(&b, "WITH %s AS n ", node)
	}
	fmt.Fprintf(&b, "CALL (n) {\n%s\n} WITH collect([%s]) AS __rf_rows RETURN CASE size(__rf_rows) WHEN 1 THEN __rf_rows[0][0] END AS %s }",
		strings.TrimSpace(f.Config.Cypher), col, alias)
	return b.String(), nil
}
