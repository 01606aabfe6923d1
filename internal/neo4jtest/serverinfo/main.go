// Command serverinfo prints which Neo4j the tests are about to run against,
// as the server itself reports it (dbms.components and, when installed,
// apoc.version), so that a test log always says what it proved things on.
// scripts/test runs it after starting the server; it reads the variables
// scripts/test exports for neo4jtest (RAGFORGE_TEST_NEO4J_URI, _USER,
// _PASSWORD, _DATABASE), never a user's NEO4J_*.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "serverinfo:", err)
		os.Exit(1)
	}
}

func run() error {
	uri := os.Getenv("RAGFORGE_TEST_NEO4J_URI")
	if uri == "" {
		return fmt.Errorf("RAGFORGE_TEST_NEO4J_URI is unset")
	}
	user := os.Getenv("RAGFORGE_TEST_NEO4J_USER")
	if user == "" {
		user = "neo4j"
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := neo4j.NewDriverWithContext(uri, neo4j.BasicAuth(user, os.Getenv("RAGFORGE_TEST_NEO4J_PASSWORD"), ""))
	if err != nil {
		return err
	}
	defer d.Close(ctx)
	db := neo4j.ExecuteQueryWithDatabase(os.Getenv("RAGFORGE_TEST_NEO4J_DATABASE"))
	res, err := neo4j.ExecuteQuery(ctx, d,
		"CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition",
		nil, neo4j.EagerResultTransformer, db)
	if err != nil {
		return fmt.Errorf("%s: %w", uri, err)
	}
	var parts []string
	for _, r := range res.Records {
		name, _ := r.Get("name")
		version, _ := r.Get("version")
		edition, _ := r.Get("edition")
		parts = append(parts, fmt.Sprintf("%v %v %v", name, version, edition))
	}
	apoc := "without APOC"
	res, err = neo4j.ExecuteQuery(ctx, d,
		"SHOW FUNCTIONS YIELD name WHERE name = 'apoc.version' RETURN count(*) AS n",
		nil, neo4j.EagerResultTransformer, db)
	if err != nil {
		return err
	}
	if n, _ := res.Records[0].Get("n"); n.(int64) > 0 {
		res, err = neo4j.ExecuteQuery(ctx, d, "RETURN apoc.version() AS v", nil, neo4j.EagerResultTransformer, db)
		if err != nil {
			return err
		}
		v, _ := res.Records[0].Get("v")
		apoc = fmt.Sprintf("with APOC %v", v)
	}
	fmt.Printf("Neo4j server at %s: %s, %s\n", uri, strings.Join(parts, "; "), apoc)
	return nil
}
