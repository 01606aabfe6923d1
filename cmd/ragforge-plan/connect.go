package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// connection holds the Neo4j settings every command that talks to the
// server shares: flags, defaulting to NEO4J_URI, NEO4J_USER,
// NEO4J_PASSWORD and NEO4J_DATABASE so scripts and CI set them once.
type connection struct {
	uri, user, password, database string
}

// addConnectionFlags registers --uri, --user, --password and --database.
func addConnectionFlags(fs *flag.FlagSet) *connection {
	c := &connection{}
	fs.StringVar(&c.uri, "uri", os.Getenv("NEO4J_URI"), "Neo4j URI (default $NEO4J_URI)")
	user := os.Getenv("NEO4J_USER")
	if user == "" {
		user = "neo4j"
	}
	fs.StringVar(&c.user, "user", user, "Neo4j user (default $NEO4J_USER, else neo4j)")
	fs.StringVar(&c.password, "password", os.Getenv("NEO4J_PASSWORD"), "Neo4j password (default $NEO4J_PASSWORD)")
	fs.StringVar(&c.database, "database", os.Getenv("NEO4J_DATABASE"), "Neo4j database (default $NEO4J_DATABASE, else the server's default)")
	return c
}

// open connects and checks the connection, so a wrong address or password
// is reported before any work starts.
func (c *connection) open(ctx context.Context) (neo4j.DriverWithContext, error) {
	if c.uri == "" {
		return nil, fmt.Errorf("no Neo4j URI: give --uri or set NEO4J_URI")
	}
	d, err := neo4j.NewDriverWithContext(c.uri, neo4j.BasicAuth(c.user, c.password, ""))
	if err != nil {
		return nil, err
	}
	if err := d.VerifyConnectivity(ctx); err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("cannot reach Neo4j at %s: %w", c.uri, err)
	}
	return d, nil
}
