package scope_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/golden"
)

// A case is a query, what the check must say of it, and the plan Neo4j
// 5.26 made of it, recorded in testdata/plans.txt:
//
//	### query: MATCH (n) WHERE n.user_id = $tenant RETURN n
//	### want: ok                     (or: ### want: refused <part of the reason>)
//	ProduceResults [n] | n
//	  Filter [n] | n.user_id = $tenant
//	    AllNodesScan [n] | n
//
// Each plan line is an operator, its identifiers and its details (newlines
// written as \n), indented two spaces per level.
type planCase struct {
	query, want string
	plan        *readonly.Op
}

const plansFile = "testdata/plans.txt"

// recordCommand records the plans of plansFile from the Neo4j test server.
var recordCommand = golden.Command("TestCheckOnRealPlans")

func readCases(t *testing.T) []planCase {
	t.Helper()
	raw, err := os.ReadFile(plansFile)
	if err != nil {
		t.Fatal(err)
	}
	var cases []planCase
	var lines []string
	flush := func() {
		if len(cases) > 0 && len(lines) > 0 {
			cases[len(cases)-1].plan = parsePlan(t, lines)
		}
		lines = nil
	}
	for _, l := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(l, "### query: "):
			flush()
			cases = append(cases, planCase{query: strings.TrimPrefix(l, "### query: ")})
		case strings.HasPrefix(l, "### want: "):
			cases[len(cases)-1].want = strings.TrimPrefix(l, "### want: ")
		case strings.TrimSpace(l) != "":
			lines = append(lines, l)
		}
	}
	flush()
	return cases
}

func parsePlan(t *testing.T, lines []string) *readonly.Op {
	t.Helper()
	var stack []*readonly.Op
	var root *readonly.Op
	for _, l := range lines {
		depth := (len(l) - len(strings.TrimLeft(l, " "))) / 2
		l = strings.TrimSpace(l)
		head, details, _ := strings.Cut(l, " | ")
		head = strings.TrimSuffix(head, " |")
		opName, ids, ok := strings.Cut(head, " [")
		if !ok {
			t.Fatalf("bad plan line %q", l)
		}
		op := &readonly.Op{Operator: opName, Details: strings.ReplaceAll(details, `\n`, "\n"), Identifiers: splitIDs(strings.TrimSuffix(ids, "]"))}
		stack = stack[:depth]
		if depth == 0 {
			root = op
		} else {
			p := stack[depth-1]
			p.Children = append(p.Children, op)
		}
		stack = append(stack, op)
	}
	return root
}

// splitIDs splits identifiers at spaces outside backquotes.
func splitIDs(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '`':
			quoted = !quoted
			cur.WriteRune(r)
		case r == ' ' && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func formatPlan(op *readonly.Op, depth int, b *strings.Builder) {
	fmt.Fprintf(b, "%s%s [%s] | %s\n", strings.Repeat("  ", depth), op.Operator, strings.Join(op.Identifiers, " "), strings.ReplaceAll(op.Details, "\n", `\n`))
	for _, c := range op.Children {
		formatPlan(c, depth+1, b)
	}
}

// formatCases writes cases as testdata/plans.txt holds them.
func formatCases(cases []planCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Queries, the verdict of scope.Check, and the plan Neo4j 5.26 made of each\n# (%s rewrites the plans).\n\n", recordCommand)
	for _, c := range cases {
		fmt.Fprintf(&b, "### query: %s\n### want: %s\n", c.query, c.want)
		if c.plan != nil {
			formatPlan(c.plan, 0, &b)
		}
		b.WriteString("\n")
	}
	return b.String()
}
