package introspect

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

// HoldsStrings reports whether some node of label name (or, when rel,
// some relationship of type name) holds property as a list with at least
// one string. Neo4j types an empty list StringArray whatever it was meant
// to hold, so a property whose types include StringArray may hold
// nothing but empty lists.
func HoldsStrings(ctx context.Context, d neo4j.DriverWithContext, database, name, property string, rel bool) (bool, error) {
	qn, err := ident.Quote(name)
	if err != nil {
		return false, err
	}
	qp, err := ident.Quote(property)
	if err != nil {
		return false, err
	}
	pattern := "(x:" + qn + ")"
	if rel {
		pattern = "()-[x:" + qn + "]->()"
	}
	n, err := reader{d: d, db: database}.count(ctx,
		"RETURN count { MATCH "+pattern+" WHERE x."+qp+" IS :: LIST<STRING NOT NULL> AND size(x."+qp+") > 0 LIMIT 1 }")
	return n > 0, err
}
