package tools

// Subset returns the catalog of the tools keep accepts, in catalog order:
// Parse refuses the others as unknown tools, so an agent given a subset
// (a config's profile) can call nothing beyond it. The tools themselves
// are shared with c, unchanged.
func (c *Catalog) Subset(keep func(*Tool) bool) *Catalog {
	sub := *c
	sub.Tools = make([]*Tool, 0, len(c.Tools))
	for _, t := range c.Tools {
		if keep(t) {
			sub.Tools = append(sub.Tools, t)
		}
	}
	sub.Metadata.ToolCount = len(sub.Tools)
	return &sub
}
