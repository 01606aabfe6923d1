package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
)

// textSample is how many values of a text field textKind reads.
const textSample = 100

// textKindHint says how to declare a text field whose values are numbers
// or datetimes so that comparisons and sorts read them as such. It is the
// one place the wording lives (typed stored_as forms for text are being
// added; update it with them).
var textKindHint = map[string]string{
	"number":   "declare it as a number with stored_as …",
	"datetime": "declare it as a datetime with stored_as …",
}

// nullMarkers are the texts a sample skips as standing for no value
// (Northwind writes "NULL" for a missing date).
var nullMarkers = []string{"", "NULL", "null", "N/A"}

// textDateLayouts are the date layouts a sampled text is tried against.
var textDateLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"}

// textNotes says, for each text field the statement orders (Shape.TextOrdered)
// whose sampled values all look like numbers (or all like dates), that the
// answer compared them as text and how to declare the type: "10" < "9"
// reads as a wrong answer, not as text order (issue 30: unitPrice > 20
// gave 718 order lines, not 604).
func (e *Engine) textNotes(ctx context.Context, st *planner.Statement) ([]string, error) {
	var notes []string
	for _, t := range st.Shape.TextOrdered {
		kind, err := e.textKind(ctx, st, t)
		if err != nil {
			return nil, err
		}
		if kind == "" {
			continue
		}
		notes = append(notes, fmt.Sprintf("%s.%s is text whose values look like %ss, and <, >, between and order_by compare it character by character (\"10\" before \"9\"), so this answer may not be in %s order; %s",
			t.Owner, t.Field, kind, kind, textKindHint[kind]))
	}
	return notes, nil
}

// textKind samples the field (under the call's tenant) once per engine
// and returns "number" or "datetime" when every sampled value that is not
// a null marker reads as one, else "".
func (e *Engine) textKind(ctx context.Context, st *planner.Statement, t planner.TextOrder) (string, error) {
	key := fmt.Sprint(t, "\x00", st.Params[tenant.Param])
	if k, ok := e.textKinds.Load(key); ok {
		return k.(string), nil
	}
	owner, err := ident.Quote(t.Owner)
	if err != nil {
		return "", err
	}
	prop, err := ident.Quote(t.Field)
	if err != nil {
		return "", err
	}
	pattern, node := "(x:"+owner+")", "x"
	if t.Relationship {
		pattern, node = "(a)-[x:"+owner+"]->()", "a"
	}
	params := map[string]any{"n": int64(textSample)}
	scoped, err := e.tenantAnd(node, st, params)
	if err != nil {
		return "", err
	}
	rows, err := e.readRows(ctx, "MATCH "+pattern+" WHERE x."+prop+" IS NOT NULL"+scoped+" RETURN x."+prop+" AS v LIMIT $n", params)
	if err != nil {
		return "", fmt.Errorf("engine: sampling %s.%s: %w", t.Owner, t.Field, err)
	}
	var values []string
	for _, r := range rows {
		if s, ok := r[0].(string); ok {
			values = append(values, s)
		}
	}
	kind := looksLike(values)
	e.textKinds.Store(key, kind)
	return kind, nil
}

// looksLike is "number" when every value but the null markers parses as a
// number, "datetime" when every one parses as a date, else "" (also when
// only null markers were sampled).
func looksLike(values []string) string {
	numbers, dates, seen := true, true, 0
	for _, v := range values {
		v = strings.TrimSpace(v)
		if slices.Contains(nullMarkers, v) {
			continue
		}
		seen++
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numbers = false
		}
		if !parsesAsDate(v) {
			dates = false
		}
	}
	switch {
	case seen == 0:
		return ""
	case numbers:
		return "number"
	case dates:
		return "datetime"
	}
	return ""
}

func parsesAsDate(v string) bool {
	for _, layout := range textDateLayouts {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}
