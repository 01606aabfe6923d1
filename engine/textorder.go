package engine

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
)

// textSample is how many values of a text field textKind reads.
const textSample = 100

// textKindHint says how to declare a text field whose values are numbers
// or datetimes so that comparisons and sorts read them as such: the one
// place the wording lives.
var textKindHint = map[string]string{
	"number":   "declare it as type: number (or integer) with stored_as: text, and its null markers as null_values",
	"datetime": "declare it as type: datetime with stored_as: text, and its null markers as null_values",
}

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
	if len(values) > 0 {
		// A sample of nothing (no data yet) decides nothing: read again.
		e.textKinds.Store(key, kind)
	}
	return kind, nil
}

// looksLike is "number" when every value but textvalue's null markers
// reads as a number (an integer included), "datetime" when every one
// reads as a datetime, both as a field stored_as: text would read them;
// else "" (also when only markers were sampled).
func looksLike(values []string) string {
	switch typ, _ := textvalue.Classify(values); typ {
	case "integer", "number":
		return "number"
	case "datetime":
		return "datetime"
	}
	return ""
}
