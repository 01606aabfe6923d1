package format

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// Listing renders tools for a person reading a terminal: each tool's name,
// category and read-only flag, its description, and one line per argument
// (required ones marked *) with type, choices, bounds and default. It is
// what `ragforge-plan tools` prints without --format.
func Listing(ts []*tools.Tool) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteString("\n")
		}
		flags := []string{string(t.Category)}
		if t.ReadOnly {
			flags = append(flags, "read-only")
		}
		if t.Custom() {
			flags = append(flags, "custom")
		}
		fmt.Fprintf(&b, "%s [%s]\n", t.Name, strings.Join(flags, ", "))
		for _, line := range strings.Split(t.Description, "\n") {
			if line == "" {
				b.WriteString("\n")
			} else {
				b.WriteString("    " + line + "\n")
			}
		}
		s, err := parseNode(t.InputSchema)
		if err != nil {
			fmt.Fprintf(&b, "  (input schema unreadable: %v)\n", err)
			continue
		}
		props := s.get("properties")
		if props == nil || len(props.keys) == 0 {
			b.WriteString("  arguments: none\n")
			continue
		}
		var required []string
		if r := s.get("required"); r != nil {
			for _, it := range r.items {
				required = append(required, it.str())
			}
		}
		b.WriteString("  arguments:\n")
		for j, name := range props.keys {
			mark := " "
			if slices.Contains(required, name) {
				mark = "*"
			}
			fmt.Fprintf(&b, "    %s%-18s %s\n", mark, name, summary(props.vals[j], s.get("$defs")))
		}
	}
	return b.String()
}

// summary describes one argument's schema in a line; a reference names
// the definition in defs it points to ({field, operator, …}).
func summary(s, defs *node) string {
	if ref := s.get("$ref").str(); ref != "" {
		if d := defs.get(strings.TrimPrefix(ref, "#/$defs/")); d != nil && d.get("$ref") == nil {
			return summary(d, defs)
		}
		return ref
	}
	var parts []string
	typ := s.get("type").str()
	if t := s.get("type"); t != nil && t.arr {
		var types []string
		for _, it := range t.items {
			types = append(types, it.str())
		}
		typ = strings.Join(types, " | ")
	}
	if typ == "" && s.get("enum") != nil && s.get("anyOf") == nil {
		typ = "string"
	}
	switch {
	case typ == "array" && s.get("items") != nil:
		parts = append(parts, "array of "+summary(s.get("items"), defs))
	case typ == "object":
		var names []string
		var required []string
		if r := s.get("required"); r != nil {
			for _, it := range r.items {
				required = append(required, it.str())
			}
		}
		if p := s.get("properties"); p != nil {
			for _, k := range p.keys {
				if slices.Contains(required, k) {
					k += "*"
				}
				names = append(names, k)
			}
		}
		parts = append(parts, "{"+strings.Join(names, ", ")+"}")
	case typ != "":
		parts = append(parts, typ)
	case s.get("anyOf") != nil:
		var alts []string
		for _, it := range s.get("anyOf").items {
			alts = append(alts, summary(it, defs))
		}
		parts = append(parts, strings.Join(alts, " | "))
	default:
		parts = append(parts, "any")
	}
	if e := s.get("enum"); e != nil {
		var vals []string
		for _, it := range e.items {
			vals = append(vals, show(it))
		}
		parts = append(parts, "("+strings.Join(vals, "|")+")")
	}
	lo, hi := s.get("minimum"), s.get("maximum")
	if x := s.get("exclusiveMinimum"); x != nil {
		parts = append(parts, "> "+show(x))
	}
	if lo != nil || hi != nil {
		r := ""
		if lo != nil {
			r += show(lo)
		}
		r += ".."
		if hi != nil {
			r += show(hi)
		}
		parts = append(parts, r)
	}
	if p := s.get("pattern"); p != nil {
		parts = append(parts, "matching "+show(p))
	}
	if d := s.get("default"); d != nil {
		parts = append(parts, "default "+show(d))
	}
	return strings.Join(parts, " ")
}
