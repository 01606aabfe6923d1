package model

// Profile is a named tool set of the config: the tools one kind of agent
// is given (a conversation agent's reads, an ingestion agent's writes).
// The schema checked that every name is a tool this config can offer.
type Profile struct {
	Name string
	// Tools are tool names in config order.
	Tools []string
	Pos   Pos
}

// Profile returns the profile with the given name, or nil.
func (m *Model) Profile(name string) *Profile {
	for _, p := range m.Profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ProfileNames lists the profile names in config order, for errors that
// name the valid choices.
func (m *Model) ProfileNames() []string {
	names := make([]string, len(m.Profiles))
	for i, p := range m.Profiles {
		names[i] = p.Name
	}
	return names
}
