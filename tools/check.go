package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// maxListValues bounds an IN list.
const maxListValues = 1000

// decode reads arguments that passed the schema into a struct; numbers are
// kept as json.Number in untyped values so integers stay exact.
func decode(raw json.RawMessage, into any, p *problems) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		p.add("", "arguments do not fit the tool: %v", err)
		return false
	}
	return true
}

func (c *Catalog) limit(n int) int {
	if n <= 0 {
		return c.limits.DefaultLimit
	}
	return n
}

// entity returns the offer of tool for entity, reporting a problem (with the
// entities the tool offers) when there is none.
func (c *Catalog) entity(tool, entity, at string, p *problems) *EntityOffer {
	o := c.offerFor(tool, entity)
	if o == nil {
		p.choose(at, OfferEntities(c.offers[tool]), "%q is not an entity this tool searches", entity)
	}
	return o
}

// offeredField returns the named field of the entity's offer, reporting a
// problem that lists the entity's valid fields when it is not offered.
func (c *Catalog) offeredField(tool, entity, field, at string, p *problems) *FieldOffer {
	o := c.entity(tool, entity, "/entity_type", p)
	if o == nil {
		return nil
	}
	f := o.Field(field)
	if f == nil {
		p.choose(at, o.FieldNames(), "%q is not a field of %s here", field, entity)
	}
	return f
}

// checkConditions checks the conditions of the argument name against an
// entity's query offer and converts each value to the field's Go type.
func (c *Catalog) checkConditions(o *EntityOffer, conds []Condition, name string, p *problems) {
	c.checkConds(o, conds, Pointer(name), 0, p)
	checkBindings(conds, Pointer(name), p)
}

// checkField checks one {field, operator, value} condition at pointer at.
func checkField(o *EntityOffer, cond *Condition, at string, p *problems) {
	f := o.Field(cond.Field)
	if f == nil {
		p.choose(at+"/field", o.FieldNames(), "%q is not a field of %s", cond.Field, o.Entity.Name)
		return
	}
	if !slices.Contains(f.Modes, cond.Operator) {
		p.choose(at+"/operator", f.Modes, "operator %q does not apply to %s field %s%s", cond.Operator, f.Field.Type, f.Field.Name, listHint(f.Field))
		return
	}
	if cond.IgnoreCase && (f.Field.Type.Kind() != model.String || !slices.Contains(IgnoreCaseOperators, cond.Operator)) {
		p.add(at+"/ignore_case", "ignore_case applies to string fields with %s, not to %s %s", strings.Join(IgnoreCaseOperators, ", "), f.Field.Type, cond.Operator)
		return
	}
	vat := at + "/value"
	if f.Field.Type.Kind() == model.List {
		checkListValue(f.Field, cond, vat, p)
		return
	}
	switch cond.Operator {
	case "IS NULL", "IS NOT NULL":
		if cond.Value != nil {
			p.add(vat, "%s takes no value", cond.Operator)
		}
	case "IN", "NOT IN":
		list, ok := cond.Value.([]any)
		if !ok || len(list) == 0 {
			p.add(vat, "%s needs a non-empty list of values", cond.Operator)
			return
		}
		if len(list) > maxListValues {
			p.add(vat, "%s takes at most %d values", cond.Operator, maxListValues)
			return
		}
		for j, v := range list {
			if nv, ok := convertValue(f.Field, v, vat+Pointer(j), p); ok {
				list[j] = nv
			}
		}
	default:
		if cond.Value == nil {
			p.add(vat, "operator %s needs a value", cond.Operator)
			return
		}
		if _, isList := cond.Value.([]any); isList {
			p.add(vat, "operator %s takes one value, not a list (use IN for a list)", cond.Operator)
			return
		}
		if nv, ok := convertValue(f.Field, cond.Value, vat, p); ok {
			cond.Value = nv
		}
	}
}

// convertValue checks that v fits the field's type and returns it as the
// field's Go type: int64 for integer, float64 for number, bool, or string
// (enum values among the allowed ones, datetimes parseable).
func convertValue(f *model.Field, v any, at string, p *problems) (any, bool) {
	switch f.Type.Kind() {
	case model.Number:
		n, ok := v.(json.Number)
		if !ok {
			p.add(at, "%s is a %s field; give a number", f.Name, f.Type)
			return nil, false
		}
		if f.Type == model.Integer {
			i, err := n.Int64()
			if err != nil {
				p.add(at, "%s is an integer field; %s is not a whole number", f.Name, n)
				return nil, false
			}
			return i, true
		}
		x, err := n.Float64()
		if err != nil || math.IsInf(x, 0) {
			p.add(at, "%s is out of range", n)
			return nil, false
		}
		return x, true
	case model.Boolean:
		b, ok := v.(bool)
		if !ok {
			p.add(at, "%s is a boolean field; give true or false", f.Name)
			return nil, false
		}
		return b, true
	case model.Datetime:
		s, ok := v.(string)
		if !ok {
			p.add(at, "%s is a datetime field; give a string such as 2024-05-01 or 2024-05-01T10:00:00Z", f.Name)
			return nil, false
		}
		if _, err := ParseDatetime(s); err != nil {
			p.add(at, "%v", err)
			return nil, false
		}
		return s, true
	case model.Enum:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.Values, s) {
			p.choose(at, f.Values, "%s is not a value of enum field %s", show(v), f.Name)
			return nil, false
		}
		return s, true
	case model.String:
		s, ok := v.(string)
		if !ok {
			p.add(at, "%s is a string field; give a string", f.Name)
			return nil, false
		}
		return s, true
	}
	p.add(at, "%s (%s) cannot be compared with a value", f.Name, f.Type)
	return nil, false
}
