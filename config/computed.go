package config

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// checkComputed compiles every computed field (package computed) so that
// expression errors — unknown names, type errors, unsupported constructs,
// dependency cycles — are config errors like any other, each pointing at
// the column inside the expression as the user's file spells it. The
// compiled fields are dropped: the runtime compiles its own once per model
// (computed.Model), so a loaded config holds no runtime state.
func checkComputed(m *model.Model, srcs []Source) ConfigErrors {
	_, err := computed.CompileModel(m)
	if err == nil {
		return nil
	}
	var errs computed.Errors
	if !errors.As(err, &errs) {
		return ConfigErrors{{Msg: err.Error()}}
	}
	data := map[string][]byte{}
	for _, s := range srcs {
		data[s.Name] = s.Data
	}
	out := make(ConfigErrors, 0, len(errs))
	for _, e := range errs {
		pos := e.Pos
		if e.Source != "" {
			pos = expressionPos(data[pos.File], pos, e.Source, e.Offset)
		}
		path := "entities." + e.Entity
		if e.Relationship != "" {
			path += ".relationships." + e.Relationship
		}
		if e.Field != "" {
			path += ".computed_fields." + e.Field
		}
		out = append(out, ConfigError{Pos: pos, Path: path, Msg: e.Msg})
	}
	return out
}

// exprKeys are the keys of a field or computed field that its expression
// checks read.
var exprKeys = map[string]bool{"name": true, "type": true, "stored_as": true, "values": true, "expression": true, "cypher": true}

// exprField is the part of a field or computed field that the expression
// checks read.
type exprField struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	StoredAs   string   `json:"stored_as"`
	Values     []string `json:"values"`
	Expression string   `json:"expression"`
	Cypher     string   `json:"cypher"`
}

// blockedEntities are the indices of the entities whose name, fields or
// computed fields (what the expression checks read) have schema errors; ok
// is false when the entities list itself is wrong.
func blockedEntities(errs ConfigErrors) (blocked map[int]bool, ok bool) {
	blocked = map[int]bool{}
	for _, e := range errs {
		parts := strings.Split(e.Path, ".")
		if parts[0] != "entities" {
			continue
		}
		if len(parts) == 1 {
			return nil, false
		}
		i, err := strconv.Atoi(parts[1])
		if err != nil {
			return nil, false
		}
		fields := len(parts) > 2 && (parts[2] == "searchable_fields" || parts[2] == "computed_fields")
		if len(parts) == 2 || parts[2] == "name" || fields && (len(parts) < 5 || exprKeys[parts[4]]) {
			blocked[i] = true
		}
	}
	return blocked, true
}

// passedEntities decodes the entities whose name, fields and computed
// fields passed the schema while something else in the config did not, so
// their expressions are still type-checked and their cycles found: one run
// reports every problem. v is the config unified with the schema, errs the
// schema's errors (their paths say which entities to leave out).
func passedEntities(v, data cue.Value, errs ConfigErrors) *model.Model {
	blocked, ok := blockedEntities(errs)
	if !ok {
		return nil
	}
	// The list as a whole is in error; its elements are looked up one by one.
	n, err := data.LookupPath(cue.ParsePath("entities")).Len().Int64()
	if err != nil {
		return nil
	}
	m := &model.Model{}
	for i := range int(n) {
		if blocked[i] {
			continue
		}
		ent := v.LookupPath(cue.MakePath(cue.Str("entities"), cue.Index(i)))
		// Only what the expression checks read: a bad materialized or
		// cache_property value is reported by the schema and does not
		// keep the expressions from being checked.
		var re rawEntity
		var fields, computed []exprField
		ok := true
		for key, dst := range map[string]any{"name": &re.Name, "searchable_fields": &fields, "computed_fields": &computed} {
			if x := ent.LookupPath(cue.MakePath(cue.Str(key))); x.Exists() && x.Decode(dst) != nil {
				ok = false
			}
		}
		for _, f := range fields {
			re.Fields = append(re.Fields, rawField{Name: f.Name, Type: f.Type, StoredAs: f.StoredAs, Values: f.Values})
		}
		for _, c := range computed {
			re.Computed = append(re.Computed, rawComputed{rawField: rawField{Name: c.Name, Type: c.Type}, Expression: c.Expression, Cypher: c.Cypher})
		}
		if ok {
			m.Entities = append(m.Entities, decodeEntity(re, entityCapabilities{}, func(rest ...any) model.Pos {
				return posAt(data, append([]any{"entities", i}, rest...)...)
			}))
		}
	}
	return m
}

// expressionPos finds where rune offset off of the expression value lies in
// the file. keyPos is the position of the `expression` key (what the
// decoder records); the value follows the colon as a plain, quoted or block
// (| or >) scalar. The value's characters are matched in order against the
// file's text, skipping what YAML adds (quotes, escapes, indentation, line
// folding). When the text cannot be found the key's position is returned.
func expressionPos(data []byte, keyPos model.Pos, value string, off int) model.Pos {
	i := lineColIndex(data, keyPos.Line, keyPos.Col)
	if i < 0 {
		return keyPos
	}
	// Skip the key and the colon.
	if i < len(data) && data[i] == '"' {
		i++
		for i < len(data) && data[i] != '"' {
			if data[i] == '\\' {
				i++
			}
			i++
		}
		i++
	}
	for i < len(data) && data[i] != ':' && data[i] != '\n' {
		i++
	}
	if i >= len(data) || data[i] != ':' {
		return keyPos
	}
	i++
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	indent := -1 // skip all leading blanks of continuation lines
	dquoted := false
	if i < len(data) && (data[i] == '|' || data[i] == '>') {
		for i < len(data) && data[i] != '\n' {
			i++
		}
		i++
		// The block's indentation is the first non-empty line's.
		j := i
		for j < len(data) && data[j] == ' ' {
			j++
		}
		indent = j - i
		i = j
	} else if i < len(data) && (data[i] == '"' || data[i] == '\'') {
		dquoted = data[i] == '"'
		i++
	}
	runes := []rune(value)
	if off > len(runes) {
		off = len(runes)
	}
	for k := 0; k < off && i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if dquoted && r == '\\' {
			r, size = unescape(data[i:])
		}
		switch {
		case r == runes[k]:
			k++
			i += size
		case r == '\n' && (runes[k] == ' ' || runes[k] == '\n'):
			k++
			i = skipIndent(data, i+1, indent)
			continue
		case r == '\n':
			i = skipIndent(data, i+1, indent)
			continue
		default:
			i += size
		}
		if k > 0 && runes[k-1] == '\n' {
			i = skipIndent(data, i, indent)
		}
	}
	line, col := indexLineCol(data, i)
	if line == 0 {
		return keyPos
	}
	return model.Pos{File: keyPos.File, Line: line, Col: col}
}

// skipIndent skips up to n blanks (all of them when n < 0) at index i.
func skipIndent(data []byte, i, n int) int {
	for c := 0; i < len(data) && (data[i] == ' ' || data[i] == '\t') && (n < 0 || c < n); c++ {
		i++
	}
	return i
}

// lineColIndex is the byte index of a 1-based line and byte column, or -1.
func lineColIndex(data []byte, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	i := 0
	for l := 1; l < line; l++ {
		nl := strings.IndexByte(string(data[i:]), '\n')
		if nl < 0 {
			return -1
		}
		i += nl + 1
	}
	if i+col-1 > len(data) {
		return -1
	}
	return i + col - 1
}

// indexLineCol is the 1-based line and byte column of byte index i.
func indexLineCol(data []byte, i int) (line, col int) {
	if i > len(data) {
		return 0, 0
	}
	line, start := 1, 0
	for j := 0; j < i; j++ {
		if data[j] == '\n' {
			line, start = line+1, j+1
		}
	}
	return line, i - start + 1
}

// unescape decodes one YAML double-quoted escape at the start of b (which
// starts with a backslash): the character and the bytes it spans.
func unescape(b []byte) (rune, int) {
	if len(b) < 2 {
		return '\\', 1
	}
	hex := map[byte]int{'x': 2, 'u': 4, 'U': 8}[b[1]]
	if hex > 0 && len(b) >= 2+hex {
		if v, err := strconv.ParseUint(string(b[2:2+hex]), 16, 32); err == nil {
			return rune(v), 2 + hex
		}
	}
	simple := map[byte]rune{'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', '/': '/', '0': 0, ' ': ' ', 'e': 0x1b, 'a': 7, 'b': 8, 'f': 12, 'v': 11, 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029}
	if r, ok := simple[b[1]]; ok {
		return r, 2
	}
	return '\\', 1
}

// CheckCypherFields asks the server to plan every raw `cypher:` computed
// field (computed.ExplainCheck): a body that does not parse, returns other
// than one column or could write is a config error at the field. Only
// `ragforge-plan vet` with a server configured pays for these round trips.
// It takes the compiled fields so a command compiles its model once.
func CheckCypherFields(ctx context.Context, driver neo4j.DriverWithContext, database string, cm *computed.Model) (ConfigErrors, error) {
	var out ConfigErrors
	for _, e := range cm.Model().Entities {
		ce := cm.Entity(e.Name)
		for _, c := range e.Computed {
			if c.Cypher == "" {
				continue
			}
			if err := computed.ExplainCheck(ctx, driver, database, ce.Field(c.Name)); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				var cerr *computed.Error
				if !errors.As(err, &cerr) {
					// Not the field's fault (e.g. the server went away).
					return nil, err
				}
				out = append(out, ConfigError{Pos: c.ExpressionPos, Path: "entities." + e.Name + ".computed_fields." + c.Name + ".cypher", Msg: cerr.Msg})
			}
		}
	}
	return out, nil
}
