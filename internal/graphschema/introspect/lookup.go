package introspect

import "slices"

// FindIndex returns the first index of one of the given types (any when
// none is given) on exactly these properties of the label or relationship
// type, whatever its name, or nil: an index under another name serves a
// query as well as one under the expected name.
func (s *Schema) FindIndex(entityType, labelOrType string, properties []string, types ...string) *Index {
	for i := range s.Indexes {
		ix := &s.Indexes[i]
		if ix.EntityType == entityType && slices.Equal(ix.LabelsOrTypes, []string{labelOrType}) &&
			slices.Equal(ix.Properties, properties) && (len(types) == 0 || slices.Contains(types, ix.Type)) {
			return ix
		}
	}
	return nil
}

// IndexNamed returns the index with the given name, or nil.
func (s *Schema) IndexNamed(name string) *Index {
	for i := range s.Indexes {
		if s.Indexes[i].Name == name {
			return &s.Indexes[i]
		}
	}
	return nil
}

// UniqueProperty returns the property a single-property uniqueness (or node
// key) constraint makes unique on the label, or "".
func (s *Schema) UniqueProperty(label string) string {
	for _, c := range s.Constraints {
		if (c.Type == "UNIQUENESS" || c.Type == "NODE_KEY") && c.EntityType == "NODE" &&
			slices.Equal(c.LabelsOrTypes, []string{label}) && len(c.Properties) == 1 {
			return c.Properties[0]
		}
	}
	return ""
}
