package format

import "slices"

// strictUnsupported are keywords OpenAI's strict mode (structured outputs)
// rejects or does not promise to honour; a schema using any of them is sent
// without strict.
var strictUnsupported = []string{
	"default", "minLength", "maxLength", "pattern", "format", "minimum",
	"maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "oneOf", "allOf", "not",
	"patternProperties", "propertyNames", "minProperties", "maxProperties",
	"if", "then", "else", "const",
}

// strictCompatible reports whether a tool's schema meets OpenAI strict
// mode's rules: an object at the root, every object closed with every
// property required, and no unsupported keyword anywhere.
func strictCompatible(root *node) bool {
	if root.get("type").str() != "object" {
		return false
	}
	var ok func(n *node) bool
	ok = func(n *node) bool {
		if n == nil {
			return true
		}
		if n.arr {
			for _, it := range n.items {
				if !ok(it) {
					return false
				}
			}
			return true
		}
		if !n.obj {
			return true
		}
		for _, k := range n.keys {
			if slices.Contains(strictUnsupported, k) {
				return false
			}
		}
		if n.get("type").str() == "object" {
			if n.get("additionalProperties").value() != false {
				return false
			}
			props := n.get("properties")
			var required []string
			if r := n.get("required"); r != nil {
				for _, it := range r.items {
					required = append(required, it.str())
				}
			}
			if props != nil {
				for _, name := range props.keys {
					if !slices.Contains(required, name) {
						return false
					}
				}
				for _, v := range props.vals {
					if !ok(v) {
						return false
					}
				}
			}
		}
		if defs := n.get("$defs"); defs != nil {
			for _, d := range defs.vals {
				if !ok(d) {
					return false
				}
			}
		}
		return ok(n.get("items")) && ok(n.get("anyOf"))
	}
	return ok(root)
}

// typeEnums returns a copy of a schema whose enums without a type say
// "type": "string" (ragforge leaves it out: the values say it), for strict
// mode, whose documented examples always give both.
func typeEnums(n *node) *node {
	if n == nil || (!n.obj && !n.arr) {
		return n
	}
	out := &node{obj: n.obj, arr: n.arr}
	for _, it := range n.items {
		out.items = append(out.items, typeEnums(it))
	}
	if e := n.get("enum"); n.obj && e != nil && n.get("type") == nil && slices.IndexFunc(e.items, func(v *node) bool {
		_, isString := v.value().(string)
		return !isString
	}) < 0 {
		out.set("type", scalar("string"))
	}
	for i, k := range n.keys {
		out.set(k, typeEnums(n.vals[i]))
	}
	return out
}
