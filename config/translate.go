package config

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/model"
)

// errLabel marks, in the schema, a hidden field whose error belongs to the
// data value at the same path without it: `entities.0._err.unique_field`
// reports on `entities.0.unique_field`. The schema attaches rule errors
// there because attaching them to the checked field itself would make the
// field depend on its own check (a CUE structural cycle).
const errLabel = "_err"

// translate turns CUE errors into one ConfigError per problem, positioned at
// the offending value of the user's file. data is the config before
// unification (positions come from it) and def is the #Config schema (the
// allowed keys come from it); either may be the zero Value for errors found
// before unification.
func translate(err error, data, def cue.Value) ConfigErrors {
	var out, derived ConfigErrors
	for _, e := range cueerrors.Errors(err) {
		path := dataPath(e.Path())
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		if strings.TrimSpace(msg) == "" {
			msg = e.Error()
		}
		var pos model.Pos
		if m := lineError.FindStringSubmatch(msg); m != nil {
			// Parser errors (YAML) carry their position in the text.
			line, _ := strconv.Atoi(m[2])
			pos, msg = model.Pos{File: m[1], Line: line, Col: 1}, m[3]
		}
		ce := ConfigError{Path: strings.Join(path, "."), Msg: msg}
		ce.Pos = positionOf(data, path)
		if ce.Pos.Line == 0 {
			ce.Pos = pos
		}
		if ce.Pos.Line == 0 {
			ce.Pos = toPos(e.Position())
			if ce.Pos.Line == 0 || strings.HasPrefix(ce.Pos.File, "schema/") {
				ce.Pos = firstUserPos(e.InputPositions())
			}
		}
		if ce.Msg == "field not allowed" {
			path = firstUnknownKey(path, def)
			ce.Path = strings.Join(path, ".")
			ce.Pos = positionOf(data, path)
		}
		ce.Msg = rewrite(ce.Msg, path, def)
		if headerOnly.MatchString(ce.Msg) {
			continue
		}
		if derivative(path, ce.Msg) {
			derived = append(derived, ce)
			continue
		}
		out = append(out, ce)
	}
	if len(out) == 0 {
		return derived
	}
	return out
}

// headerOnly matches CUE's summary line before a disjunction's own errors,
// which follow it and say more.
var headerOnly = regexp.MustCompile(`^\d+ errors in empty disjunction:?$`)

// derivative reports errors that only echo another one: a failed builtin
// fed by an invalid value, or a check on the schema's hidden helper lists.
// They are shown only when nothing else explains the failure.
func derivative(path []string, msg string) bool {
	if strings.HasPrefix(msg, "error in call to ") {
		return true
	}
	for _, p := range path {
		if strings.HasPrefix(p, "_") {
			return true
		}
	}
	return false
}

// firstUnknownKey shortens the path of a "field not allowed" error to the
// key the user misspelt: CUE also reports everything nested under it.
func firstUnknownKey(path []string, def cue.Value) []string {
	if !def.Exists() {
		return path
	}
	for n := 1; n < len(path); n++ {
		if _, err := strconv.Atoi(path[n-1]); err == nil {
			continue
		}
		allowed := allowedKeys(def, path[:n-1], "")
		if len(allowed) > 0 && !slices.Contains(allowed, path[n-1]) {
			return path[:n]
		}
	}
	return path
}

// dataPath drops the schema's error markers and quotes from a CUE error path.
func dataPath(p []string) []string {
	out := make([]string, 0, len(p))
	for i, s := range p {
		if s == errLabel || (i == 0 && s == "#Config") {
			continue
		}
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
		out = append(out, s)
	}
	return out
}

// schemaAt walks the schema along a data path: every list element has the
// list's element type, and a key may be declared regular, optional (?) or
// required (!).
func schemaAt(def cue.Value, p []string) cue.Value {
	v := def
	for _, s := range p {
		if _, err := strconv.Atoi(s); err == nil {
			v = v.LookupPath(cue.MakePath(cue.AnyIndex))
			continue
		}
		key := cue.Str(s)
		next := v.LookupPath(cue.MakePath(key))
		if !next.Exists() {
			next = v.LookupPath(cue.MakePath(key.Optional()))
		}
		if !next.Exists() {
			next = v.LookupPath(cue.MakePath(key.Required()))
		}
		v = next
	}
	return v
}

// cuePath converts a data path into a CUE path (list indices as indexes).
func cuePath(p []string) cue.Path {
	sels := make([]cue.Selector, len(p))
	for i, s := range p {
		if n, err := strconv.Atoi(s); err == nil {
			sels[i] = cue.Index(n)
		} else {
			sels[i] = cue.Str(s)
		}
	}
	return cue.MakePath(sels...)
}

// positionOf finds the deepest value of data along path that exists in the
// user's file and returns its position.
func positionOf(data cue.Value, path []string) model.Pos {
	if !data.Exists() {
		return model.Pos{}
	}
	for n := len(path); n >= 0; n-- {
		v := data.LookupPath(cuePath(path[:n]))
		if v.Exists() {
			if p := posOf(v); p.Line != 0 {
				return p
			}
		}
	}
	return model.Pos{}
}

// posOf returns the position of v in its source file.
func posOf(v cue.Value) model.Pos {
	return toPos(v.Pos())
}

func toPos(p token.Pos) model.Pos {
	if !p.IsValid() {
		return model.Pos{}
	}
	return model.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
}

func firstUserPos(ps []token.Pos) model.Pos {
	for _, p := range ps {
		if mp := toPos(p); mp.Line != 0 && !strings.HasPrefix(mp.File, "schema/") {
			return mp
		}
	}
	return model.Pos{}
}

var (
	lineError       = regexp.MustCompile(`^(.+):(\d+): (.*)$`)
	identifierBound = regexp.MustCompile(`^invalid value (.*) \(out of bound =~"\^\[A-Za-z_\]`)
	durationBound   = regexp.MustCompile(`^invalid value (.*) \(out of bound =~"\^\[1-9\]`)
	mismatch        = regexp.MustCompile(`^conflicting values (.*) and (.*) \(mismatched types (\w+) and (\w+)\)$`)
	conflict        = regexp.MustCompile(`^conflicting values (.*) and (.*)$`)
	listLengths     = regexp.MustCompile(`^incompatible list lengths \((\d+) and (\d+)\)$`)
	boundViolation  = regexp.MustCompile(`^invalid value (.*) \(out of bound ([<>=!]+)(.*)\)$`)
)

// rewrite replaces CUE's generic wording with what is wrong and what is
// allowed, in the config's own terms. Messages the schema wrote itself (with
// error()) pass through unchanged.
func rewrite(msg string, path []string, def cue.Value) string {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1]
	}
	switch {
	case msg == "field not allowed":
		allowed := allowedKeys(def, path[:max(len(path)-1, 0)], key)
		if len(allowed) == 0 {
			return fmt.Sprintf("unknown key %q", key)
		}
		return fmt.Sprintf("unknown key %q (allowed: %s)", key, strings.Join(allowed, ", "))
	case msg == "field is required but not present":
		return fmt.Sprintf("missing required key %q", key)
	case strings.HasPrefix(msg, "required field missing: "):
		return fmt.Sprintf("missing required key %q", strings.TrimPrefix(msg, "required field missing: "))
	case strings.HasSuffix(msg, "(does not satisfy strings.MinRunes(1))"):
		return "must not be empty"
	case identifierBound.MatchString(msg):
		v := identifierBound.FindStringSubmatch(msg)[1]
		if name, err := strconv.Unquote(v); err == nil {
			return (&ident.Error{Name: name}).Error()
		}
		return fmt.Sprintf("%s is not a valid name (allowed: letters, digits and _, not starting with a digit, at most 100 characters)", v)
	case durationBound.MatchString(msg):
		v := durationBound.FindStringSubmatch(msg)[1]
		return fmt.Sprintf("%s is not a duration (allowed: a whole number of minutes, hours or days, such as 90m, 12h, 7d)", v)
	case mismatch.MatchString(msg):
		m := mismatch.FindStringSubmatch(msg)
		got, want := m[1], m[4]
		if isTypeName(m[1]) {
			got, want = m[2], m[3]
		}
		return fmt.Sprintf("%s is not a %s", got, kindName(want))
	case listLengths.MatchString(msg) && key == "entities":
		return "a config declares at least one entity"
	case listLengths.MatchString(msg) && listLengths.FindStringSubmatch(msg)[1] == "0":
		return "needs at least one entry"
	case boundViolation.MatchString(msg):
		m := boundViolation.FindStringSubmatch(msg)
		return fmt.Sprintf("%s is out of range (must be %s %s)", m[1], m[2], m[3])
	case conflict.MatchString(msg):
		m := conflict.FindStringSubmatch(msg)
		return fmt.Sprintf("conflicting values %s and %s (config files must agree)", m[1], m[2])
	}
	return msg
}

func isTypeName(s string) bool {
	switch s {
	case "string", "int", "float", "number", "bool", "null", "struct", "list", "bytes", "_":
		return true
	}
	return strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")
}

func kindName(t string) string {
	switch t {
	case "struct":
		return "mapping"
	case "int":
		return "whole number"
	case "bool":
		return "boolean (true or false)"
	}
	return t
}

// allowedKeys lists the keys the schema allows at path, for "unknown key"
// messages, read from the schema itself rather than from a Go table.
func allowedKeys(def cue.Value, path []string, except string) []string {
	if !def.Exists() {
		return nil
	}
	v := schemaAt(def, path)
	if !v.Exists() {
		return nil
	}
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return nil
	}
	var keys []string
	for it.Next() {
		sel := it.Selector()
		if sel.IsDefinition() || sel.PkgPath() != "" {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSuffix(sel.String(), "?"), "!")
		if name == except || strings.HasPrefix(name, "_") {
			continue
		}
		keys = append(keys, name)
	}
	sort.Strings(keys)
	return keys
}
