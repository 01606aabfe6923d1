package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemacheck"
)

// contradictedFlag is the flag of `serve` and `call` that serves a config
// the live graph contradicts, with a warning in each answer it touches.
const contradictedFlag = "serve-contradicted"

func addContradictedFlag(fs *flag.FlagSet) *bool {
	return fs.Bool(contradictedFlag, false,
		"serve a config the graph contradicts (what vet --uri reports as errors: a field that reads as null everywhere, a type the values do not have, a name the graph lacks), "+
			"saying so in every answer that touches it; without it such a config is refused at start-up")
}

// checkGraph compares the config with the live graph as `vet --uri` does
// (schemacheck.Contradictions): an answer over a field that reads as null
// everywhere would be a silent `[]` (issue 30). Without serve, a
// contradiction is an error with vet's messages; with it, each one becomes
// an engine.GraphWarning and is printed to stderr once.
func checkGraph(ctx context.Context, d neo4j.DriverWithContext, database string, cm *computed.Model, serve bool, stderr io.Writer) ([]engine.GraphWarning, error) {
	findings, err := schemacheck.Contradictions(ctx, d, database, cm)
	if err != nil {
		return nil, fmt.Errorf("checking the config against the graph: %w", err)
	}
	if len(findings) == 0 {
		return nil, nil
	}
	if !serve {
		ces := make(config.ConfigErrors, len(findings))
		for i, f := range findings {
			ces[i] = config.ConfigError{Pos: f.Pos, Path: f.Path, Msg: f.Msg}
		}
		slices.SortStableFunc(ces, func(a, b config.ConfigError) int { return a.Pos.Compare(b.Pos) })
		return nil, fmt.Errorf("the graph contradicts the config, so answers would be silently wrong (as `vet --uri` reports); fix the config, or pass --%s to answer with a warning:\n%w", contradictedFlag, ces)
	}
	m := cm.Model()
	warnings := make([]engine.GraphWarning, len(findings))
	for i, f := range findings {
		fmt.Fprintf(stderr, "serving despite: %s\n", f)
		warnings[i] = engine.GraphWarning{Owner: f.Owner(m), Note: f.Msg}
	}
	return warnings, nil
}
