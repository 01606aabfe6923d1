// Package peers measures ragforge against a peer that answers the same
// questions over the same Neo4j: @neo4j/graphql (the Node library Neo4j
// maintains, executed in-process with graphql-js), on the fixture graph of
// package fixture, at the scale of net/http or of the whole standard
// library.
//
// Each workload is one question asked both ways: a ragforge tool call run
// by engine.Execute, and a GraphQL query run by graphql() in the Node
// runner (graphql/runner.mjs). Before anything is timed, [Check] proves
// that both return the same rows, in the same order, as the answer
// computed in Go from the parsed source; then [Measure] times both sides,
// alternating, and [Report] prints the medians. docs/performance.md says how to run
// it and holds the last measured table.
package peers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/planner"
)

// Scale names a fixture graph the workloads run on.
type Scale string

// The scales: net/http (about 4,500 nodes, what CI loads) and the whole
// standard library (about 316,000 nodes, loaded only when asked).
const (
	NetHTTP Scale = "nethttp"
	Stdlib  Scale = "stdlib"
)

// Row is one row of an answer: the entity's id and, where the question is
// about it, its line_count (so a difference in the computed value shows
// even when the ids agree).
type Row struct {
	ID        string
	LineCount *int64
}

// String renders a row for comparison and for failure messages.
func (r Row) String() string {
	if r.LineCount == nil {
		return r.ID
	}
	return fmt.Sprintf("%s (line_count %d)", r.ID, *r.LineCount)
}

// Workload is one question both sides answer.
type Workload struct {
	// Key is a short name (flags, metrics); Name says what is asked.
	Key, Name string
	// Call is ragforge's tool call.
	Call engine.Call
	// Query and Variables are @neo4j/graphql's GraphQL request.
	Query     string
	Variables map[string]any
	// graphQLRows reads the rows of the GraphQL answer.
	graphQLRows func(gqlData) []Row
	// expected computes the answer from the parsed source, independently
	// of Neo4j.
	expected func(*fixture.Graph) []Row
}

// gqlData is the data of every workload's GraphQL answer.
type gqlData struct {
	Scopes []gqlScope `json:"scopes"`
	Files  []struct {
		Path   string     `json:"path"`
		Scopes []gqlScope `json:"scopes"`
	} `json:"files"`
}

type gqlScope struct {
	UUID      string `json:"uuid"`
	LineCount *int64 `json:"line_count"`
}

func scopeRows(s []gqlScope) []Row {
	out := make([]Row, len(s))
	for i, x := range s {
		out[i] = Row{ID: x.UUID, LineCount: x.LineCount}
	}
	return out
}

// scopeFields are the Scope fields ragforge returns by default (all stored
// fields the tools expose), asked for on the GraphQL side too, so both
// read the same properties.
const scopeFields = "uuid name type file signature source startLine endLine"

// Limit is the page size of the workloads that return a list (ragforge's
// largest; the GraphQL queries ask for the same).
const Limit = 50

// Params are a scale's workload arguments.
type Params struct {
	// Prefix is the name prefix of the STARTS WITH workload.
	Prefix string
	// Low and High bound the line_count range workload.
	Low, High int
	// File is the path of the get-by-id and one-hop workloads.
	File string
}

// ParamsFor returns the arguments of a scale: every list answer is longer
// than a page (net/http: 78 names start with Read, 244 Scopes have 40 to
// 60 lines, server.go holds 230; the standard library: 692, 127 between
// 200 and 220, 230), so the order and the limit matter.
func ParamsFor(s Scale) Params {
	if s == Stdlib {
		return Params{Prefix: "Read", Low: 200, High: 220, File: "net/http/server.go"}
	}
	return Params{Prefix: "Read", Low: 40, High: 60, File: "net/http/server.go"}
}

// Workloads returns the five questions of the comparison with p's
// arguments: (a) top 10 Scopes by a computed field, (b) STARTS WITH on an
// indexed name, (c) a computed range filter, (d) get by the unique field,
// (e) one hop (a File's Scopes).
func Workloads(p Params) []Workload {
	call := func(tool string, args any) engine.Call {
		b, err := json.Marshal(args)
		if err != nil {
			panic(err) // the arguments are literals of this file
		}
		return engine.Call{Name: tool, Arguments: b}
	}
	return []Workload{
		{
			Key:  "top10",
			Name: "top 10 Scopes by line_count (computed)",
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Scope",
				"order_by": map[string]any{"field": "line_count", "direction": "DESC"},
				"fields":   []string{"name", "file", "line_count"}, "limit": 10}),
			Query:       `{ scopes(sort: [{line_count: DESC}, {uuid: ASC}], limit: 10) { uuid name file line_count } }`,
			graphQLRows: func(d gqlData) []Row { return scopeRows(d.Scopes) },
			expected: func(g *fixture.Graph) []Row {
				return sortedScopes(g, func(*fixture.Scope) bool { return true }, byLineCount(-1), 10, true)
			},
		},
		{
			Key:  "prefix",
			Name: fmt.Sprintf("Scope name STARTS WITH %q (indexed)", p.Prefix),
			Call: call(planner.TextPatternSearch, map[string]any{"entity_type": "Scope", "field": "name",
				"pattern": p.Prefix, "mode": "starts_with", "case_sensitive": true, "limit": Limit}),
			Query: `query ($prefix: String!, $limit: Int!) {
  scopes(where: {name: {startsWith: $prefix}}, sort: [{uuid: ASC}], limit: $limit) { ` + scopeFields + ` }
}`,
			Variables:   map[string]any{"prefix": p.Prefix, "limit": Limit},
			graphQLRows: func(d gqlData) []Row { return scopeRows(d.Scopes) },
			expected: func(g *fixture.Graph) []Row {
				return sortedScopes(g, func(s *fixture.Scope) bool { return strings.HasPrefix(s.Name, p.Prefix) }, nil, Limit, false)
			},
		},
		{
			Key:  "range",
			Name: fmt.Sprintf("Scope line_count between %d and %d (computed)", p.Low, p.High),
			Call: call(planner.NumberRangeSearch, map[string]any{"entity_type": "Scope", "field": "line_count",
				"operator": "between", "value": p.Low, "upper_value": p.High, "limit": Limit}),
			Query: `query ($low: Int!, $high: Int!, $limit: Int!) {
  scopes(where: {line_count: {gte: $low, lte: $high}}, sort: [{line_count: ASC}, {uuid: ASC}], limit: $limit) { ` + scopeFields + ` line_count }
}`,
			Variables:   map[string]any{"low": p.Low, "high": p.High, "limit": Limit},
			graphQLRows: func(d gqlData) []Row { return scopeRows(d.Scopes) },
			expected: func(g *fixture.Graph) []Row {
				in := func(s *fixture.Scope) bool { lc := lineCount(s); return lc >= int64(p.Low) && lc <= int64(p.High) }
				return sortedScopes(g, in, byLineCount(1), Limit, true)
			},
		},
		{
			Key:  "byid",
			Name: fmt.Sprintf("File by path %q (unique)", p.File),
			Call: call(planner.GetEntityByID, map[string]any{"entity_type": "File", "id_value": p.File}),
			Query: `query ($path: String!) {
  files(where: {path: {eq: $path}}, limit: 1) { path name extension language size lines }
}`,
			Variables: map[string]any{"path": p.File},
			graphQLRows: func(d gqlData) []Row {
				var out []Row
				for _, f := range d.Files {
					out = append(out, Row{ID: f.Path})
				}
				return out
			},
			expected: func(g *fixture.Graph) []Row {
				for _, f := range g.Files {
					if f.Path == p.File {
						return []Row{{ID: f.Path}}
					}
				}
				return nil
			},
		},
		{
			Key:  "hop",
			Name: fmt.Sprintf("one hop: %q CONTAINS Scope", p.File),
			Call: call(planner.ExploreRelationships, map[string]any{"start_entity_type": "File",
				"start_conditions":  []map[string]any{{"field": "path", "operator": "=", "value": p.File}},
				"relationship_type": "CONTAINS", "target_entity_type": "Scope", "limit": Limit}),
			Query: `query ($path: String!, $limit: Int!) {
  files(where: {path: {eq: $path}}) { path scopes(sort: [{uuid: ASC}], limit: $limit) { ` + scopeFields + ` } }
}`,
			Variables: map[string]any{"path": p.File, "limit": Limit},
			graphQLRows: func(d gqlData) []Row {
				var out []Row
				for _, f := range d.Files {
					out = append(out, scopeRows(f.Scopes)...)
				}
				return out
			},
			expected: func(g *fixture.Graph) []Row {
				return sortedScopes(g, func(s *fixture.Scope) bool { return s.File == p.File }, nil, Limit, false)
			},
		},
	}
}

// lineCount is the code-RAG config's line_count: endLine - startLine + 1.
func lineCount(s *fixture.Scope) int64 { return int64(s.EndLine - s.StartLine + 1) }

// byLineCount orders Scopes by line_count (dir 1 ascending, -1
// descending); ties go to the uuid order both sides add.
func byLineCount(dir int) func(a, b *fixture.Scope) int {
	return func(a, b *fixture.Scope) int { return dir * cmp.Compare(lineCount(a), lineCount(b)) }
}

// sortedScopes returns the first limit Scopes that keep, ordered by by
// (when not nil) and then by uuid, as rows, with line_count when withLC.
func sortedScopes(g *fixture.Graph, keep func(*fixture.Scope) bool, by func(a, b *fixture.Scope) int, limit int, withLC bool) []Row {
	var sel []*fixture.Scope
	for i := range g.Scopes {
		if keep(&g.Scopes[i]) {
			sel = append(sel, &g.Scopes[i])
		}
	}
	slices.SortFunc(sel, func(a, b *fixture.Scope) int {
		if by != nil {
			if c := by(a, b); c != 0 {
				return c
			}
		}
		return strings.Compare(a.UUID, b.UUID)
	})
	out := make([]Row, 0, min(limit, len(sel)))
	for _, s := range sel[:min(limit, len(sel))] {
		r := Row{ID: s.UUID}
		if withLC {
			lc := lineCount(s)
			r.LineCount = &lc
		}
		out = append(out, r)
	}
	return out
}
