package config

import (
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
)

// unknownKeys lists every key of the user's config that the schema does not
// declare. CUE reports a closed struct's extra keys only when nothing else
// is wrong, so a misspelt key would hide behind other errors (and they
// behind it); walking the data against the keys the schema declares finds
// them all in one pass, with the schema still the one list of what is
// allowed. A struct whose schema declares no keys (a map such as
// exposed_tools) accepts any key.
func unknownKeys(data, def cue.Value) ConfigErrors {
	var out ConfigErrors
	// Every element of a list has the same schema: look each shape up once.
	type shape struct {
		exists  bool
		allowed []string
	}
	shapes := map[string]shape{}
	var walk func(d cue.Value, path []string)
	walk = func(d cue.Value, path []string) {
		switch d.IncompleteKind() {
		case cue.StructKind:
			key := shapeKey(path)
			sh, ok := shapes[key]
			if !ok {
				sh = shape{exists: schemaAt(def, path).Exists(), allowed: allowedKeys(def, path, "")}
				shapes[key] = sh
			}
			if !sh.exists {
				return
			}
			allowed := sh.allowed
			it, err := d.Fields()
			if err != nil {
				return
			}
			for it.Next() {
				sel := it.Selector()
				if sel.LabelType() != cue.StringLabel {
					continue
				}
				p := append(path[:len(path):len(path)], sel.Unquoted())
				if len(allowed) > 0 && !slices.Contains(allowed, sel.Unquoted()) {
					out = append(out, ConfigError{Pos: positionOf(data, p), Path: strings.Join(p, "."), Msg: rewrite("field not allowed", p, def)})
					continue
				}
				walk(it.Value(), p)
			}
		case cue.ListKind:
			it, err := d.List()
			if err != nil {
				return
			}
			for i := 0; it.Next(); i++ {
				walk(it.Value(), append(path[:len(path):len(path)], strconv.Itoa(i)))
			}
		}
	}
	walk(data, nil)
	return out
}

// shapeKey is a data path with its list indices replaced by #: the same
// key for every element of a list.
func shapeKey(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			p = "#"
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}
