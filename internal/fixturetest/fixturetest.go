// Package fixturetest loads the fixture graph of the Go standard library's
// net/http into the test database, the one real graph most integration
// tests run on, so that each test does not repeat the parse-and-load steps.
package fixturetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// LoadNetHTTP parses $(go env GOROOT)/src/net/http and loads it through d
// (a driver from neo4jtest.Open), failing the test on any error; it returns
// the parsed graph, from which tests compute their expected results.
func LoadNetHTTP(t testing.TB, d neo4j.DriverWithContext) *fixture.Graph {
	t.Helper()
	src, err := fixture.GOROOTSrc()
	if err != nil {
		t.Fatal(err)
	}
	g, err := fixture.Parse(filepath.Join(src, "net", "http"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	return g
}
