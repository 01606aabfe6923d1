package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// sameKey reports whether two sort-key values tie as ORDER BY sees them:
// numbers by value whatever their kind (1 and 1.0 tie), temporal values
// by their ISO-8601 form, anything else by deep equality of its one JSON
// form (neo4jvalue.Value).
func sameKey(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(neo4jvalue.Value(a), neo4jvalue.Value(b))
}

// number reads an int64 or float64 as a float64. Equal floats of
// distinct int64s (beyond 2^53) would tie falsely; sort keys that large
// are ids, which are unique and never sort keys here.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// maxKeyShown bounds a tied string value in a note.
const maxKeyShown = 60

// tiedOn says on what the last row ties with the next: each sort key and
// the last row's value, e.g. "kind = \"func\", line_count = 120". An
// instant in epoch units shows as an RFC 3339 datetime (UTC), a missing
// value as "no value".
func (sh *shaper) tiedOn() string {
	keys := sh.st.Shape.SortKeys
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := sh.last[i]
		if v == nil {
			parts[i] = k.Name + " (no value)"
			continue
		}
		if n, ok := number(v); ok && k.Epoch != "" {
			ms := int64(n)
			if k.Epoch == "s" {
				ms *= 1000
			}
			v = time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
		} else {
			v = neo4jvalue.Value(v)
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		var s string
		if err := enc.Encode(v); err == nil {
			s = strings.TrimSuffix(b.String(), "\n")
		} else {
			s = fmt.Sprint(v)
		}
		if utf8.RuneCountInString(s) > maxKeyShown {
			s = string([]rune(s)[:maxKeyShown]) + "…"
		}
		parts[i] = k.Name + " = " + s
	}
	return strings.Join(parts, ", ")
}
