package tools

// relatedTestOffer is what a relationship test (or an aggregate's over)
// may read of a related entity: the stored fields of relatedOffer and the
// computed fields written as expressions, which compile to Cypher over any
// node variable (Scope.line_count of the scopes a file contains). A raw
// cypher computed field is a subquery of its own entity's statement and
// stays out.
func (c *Catalog) relatedTestOffer(entity, at string, p *problems) *EntityOffer {
	o := c.queryOffer(entity, at, p)
	if o == nil {
		return nil
	}
	out := &EntityOffer{Entity: o.Entity}
	for _, f := range o.Fields {
		if f.Computed == nil || f.Computed.Cypher == "" {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}
