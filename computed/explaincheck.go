package computed

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
)

var neo4jPos = regexp.MustCompile(`\(line (\d+), column (\d+)`)

// ExplainCheck asks Neo4j to plan a raw `cypher:` field without running it
// and verifies that the body parses, returns exactly one column named like
// the field, and is a read by readonly.Check (query type "r", no LOAD CSV,
// no procedure outside readonly.DefaultProcedures) — alone and in the
// wrapped form the planner runs —, so `ragforge-plan vet` and materialize
// apply and refresh reject a field that would write or fail at query time.
// An error that is not the field's fault (the server unreachable) is
// returned as is, not as an [*Error]. Expression fields need no server and
// return nil.
func ExplainCheck(ctx context.Context, driver neo4j.DriverWithContext, database string, f *Field) error {
	if f.Config.Cypher == "" {
		return nil
	}
	fail := func(format string, args ...any) error {
		return &Error{Entity: f.ent.Name, Field: f.Config.Name, Pos: f.Config.ExpressionPos, Msg: fmt.Sprintf(format, args...)}
	}
	label, err := ident.Quote(f.ent.Name)
	if err != nil {
		return fail("%v", err)
	}
	// check classifies q; what names the form in messages.
	check := func(q, what string) (*readonly.Explained, error) {
		ex, err := readonly.Check(ctx, driver, q, readonly.Options{Database: database})
		var refusal *readonly.Refusal
		var plan *readonly.PlanError
		switch {
		case errors.As(err, &refusal):
			return nil, fail("%s must be a read: %s", what, refusal.Reason)
		case errors.As(err, &plan):
			msg := firstLine(plan.Msg)
			if m := neo4jPos.FindStringSubmatch(plan.Msg); m != nil && what == "cypher" {
				line, _ := strconv.Atoi(m[1])
				msg = fmt.Sprintf("%s (cypher line %d, column %s)", msg, line-1, m[2])
			}
			return nil, fail("%s does not compile: %s", what, msg)
		case err != nil:
			return nil, fmt.Errorf("%s.%s: %w", f.ent.Name, f.Config.Name, err)
		}
		return ex, nil
	}
	// The body alone: does it parse, and which columns does it return?
	ex, err := check(fmt.Sprintf("MATCH (n:%s) CALL (n) {\n%s\n} RETURN *", label, strings.TrimSpace(f.Config.Cypher)), "cypher")
	if err != nil {
		return err
	}
	cols := slices.DeleteFunc(slices.Clone(ex.Keys), func(k string) bool { return k == "n" })
	if len(cols) != 1 || cols[0] != f.Config.Name {
		return fail("cypher must return exactly one column named %s, got %s", f.Config.Name, strings.Join(cols, ", "))
	}
	// The form the planner runs.
	sub, err := f.Subquery("n")
	if err != nil {
		return fail("%v", err)
	}
	alias, err := ident.Quote(Alias("n", f.Config.Name))
	if err != nil {
		return fail("%v", err)
	}
	_, err = check(fmt.Sprintf("MATCH (n:%s) %s RETURN %s", label, sub, alias), "wrapped cypher")
	return err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
