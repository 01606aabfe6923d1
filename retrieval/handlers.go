package retrieval

import (
	"fmt"
	"slices"
	"strings"
)

// HandlerReport is the difference between a tool catalog and the handlers an
// application registered. Either side being out of step is a deployment bug:
// a catalog entry without a handler lets retrieval offer a tool that fails
// when called, and a handler without an entry is a tool no agent can find.
type HandlerReport struct {
	// WithoutHandler lists catalog tools that no handler serves.
	WithoutHandler []string
	// WithoutDocument lists registered handlers with no catalog entry.
	WithoutDocument []string
}

// OK reports whether catalog and handlers match exactly.
func (r HandlerReport) OK() bool { return len(r.WithoutHandler) == 0 && len(r.WithoutDocument) == 0 }

// Err returns nil when the catalog and the handlers match, and otherwise an
// error naming every mismatch, for startup checks that must fail loudly.
func (r HandlerReport) Err() error {
	if r.OK() {
		return nil
	}
	var parts []string
	if len(r.WithoutHandler) > 0 {
		parts = append(parts, "catalog tools without a handler: "+strings.Join(r.WithoutHandler, ", "))
	}
	if len(r.WithoutDocument) > 0 {
		parts = append(parts, "handlers without a catalog entry: "+strings.Join(r.WithoutDocument, ", "))
	}
	return fmt.Errorf("tool catalog and handlers differ: %s", strings.Join(parts, "; "))
}

// CheckHandlers compares catalog documents with registered handler names.
// Both lists in the report are sorted, so the report is stable.
func CheckHandlers(docs []Document, registeredNames []string) HandlerReport {
	inCatalog := map[string]bool{}
	for _, d := range docs {
		inCatalog[d.Name] = true
	}
	registered := map[string]bool{}
	for _, n := range registeredNames {
		registered[n] = true
	}
	var r HandlerReport
	for n := range inCatalog {
		if !registered[n] {
			r.WithoutHandler = append(r.WithoutHandler, n)
		}
	}
	for n := range registered {
		if !inCatalog[n] {
			r.WithoutDocument = append(r.WithoutDocument, n)
		}
	}
	slices.Sort(r.WithoutHandler)
	slices.Sort(r.WithoutDocument)
	return r
}
