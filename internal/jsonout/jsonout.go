// Package jsonout encodes results and reports as JSON, the one way every
// command and the MCP server write them, so that a value JSON cannot
// write fails loudly with where it is rather than as encoding/json's
// bare "json: unsupported value: NaN" (or, where the error was dropped,
// as an empty answer).
//
// Results are shaped so that this cannot happen (internal/cypher/neo4jvalue
// writes NaN and the infinities as Cypher's words; the analytics tools
// refuse the graphs that give them or return null with a note); an
// [Error] is a bug of the tool that returned the value, and names it for
// the report.
package jsonout

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// Error is a value encoding/json cannot write.
type Error struct {
	// Path is where the value is, in Go terms below a value with its own
	// MarshalJSON (".Custom.modularity", "[2].score"); "" when the value
	// is not a float (a channel, a cycle).
	Path string
	// Value is the float JSON has no number for (NaN, ±Inf) when Path is
	// set.
	Value float64
	// Err is encoding/json's error.
	Err error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "cannot encode as JSON: " + e.Err.Error()
	}
	return fmt.Sprintf("cannot encode as JSON: the value at %s is %v, which JSON has no number for", e.Path, e.Value)
}

func (e *Error) Unwrap() error { return e.Err }

// Marshal is json.Marshal whose failure is an [*Error].
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, explain(v, err)
	}
	return b, nil
}

// Indent encodes v indented by two spaces, without escaping HTML
// characters, and with a final newline: the commands' output. Its failure
// is an [*Error].
func Indent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, explain(v, err)
	}
	return buf.Bytes(), nil
}

// explain wraps encoding/json's err about v in an [*Error], with the path
// of the first float JSON cannot write when that is what failed.
func explain(v any, err error) error {
	e := &Error{Err: err}
	var uv *json.UnsupportedValueError
	if errors.As(err, &uv) {
		w := walker{seen: map[uintptr]bool{}}
		if path, f, ok := w.find(reflect.ValueOf(v), ""); ok {
			e.Path, e.Value = cmp.Or(path, "the top"), f
		}
	}
	return e
}

// walker finds a NaN or infinite float in a value, naming struct fields
// as encoding/json does (their tag's name, embedded structs flattened).
type walker struct {
	// seen are the pointers and maps already walked: a value that holds
	// itself is walked once.
	seen map[uintptr]bool
}

func (w walker) find(v reflect.Value, path string) (string, float64, bool) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return path, f, true
		}
	case reflect.Pointer, reflect.Map:
		if v.IsNil() || w.seen[v.Pointer()] {
			return "", 0, false
		}
		w.seen[v.Pointer()] = true
		if v.Kind() == reflect.Pointer {
			return w.find(v.Elem(), path)
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			if p, f, ok := w.find(v.MapIndex(k), fmt.Sprintf("%s.%v", path, k)); ok {
				return p, f, true
			}
		}
	case reflect.Interface:
		if !v.IsNil() {
			return w.find(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, f, ok := w.find(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, f, true
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" || !sf.IsExported() && !sf.Anonymous {
				continue
			}
			p := path
			if !sf.Anonymous || name != "" {
				p += "." + cmp.Or(name, sf.Name)
			}
			if p, f, ok := w.find(v.Field(i), p); ok {
				return p, f, true
			}
		}
	}
	return "", 0, false
}
