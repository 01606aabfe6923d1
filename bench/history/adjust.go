package history

// Why git log -L's commit of a declaration is left out of the adjusted
// truth ("" keeps it); see the package doc.
const (
	// Past: the commit is older than one at which the tracked range kept
	// no line of code from its parent and the function holding it there
	// was not there before under its name: the range's code was all
	// written at that commit, and git log -L goes on with the lines its
	// hunk replaced.
	Past = "past the range's origin"
	// Outside: the commit's patch changes no line of the function or
	// method that holds the tracked range on either side (only a type,
	// a comment, a neighbour git's range widened over).
	Outside = "outside the function"
)

// adjust sets each touch's Drop, newest first, from git's own patches
// and the functions go/parser finds in the versions they name.
func adjust(v *versions, touches []Touch) error {
	begun := false
	for i := range touches {
		t := &touches[i]
		if begun {
			t.Drop = Past
			continue
		}
		in, origin := false, true
		for _, p := range t.Patches {
			after, err := v.side(t.Commit, p.NewPath, p.NewCode)
			if err != nil {
				return err
			}
			before, err := v.side(t.Commit+"^", p.OldPath, p.OldCode)
			if err != nil {
				return err
			}
			in = in || after.touched(p.Adds) || before.touched(p.Dels)
			origin = origin && p.Kept == 0 && !(after.found && before.found && after.holder.name == before.holder.name)
		}
		if !in {
			t.Drop = Outside
		}
		begun = origin
	}
	return nil
}

// side is one side of a patch: the function holding most of the range's
// code lines there (found false when none does), or unknown when the
// version is missing or does not parse.
type side struct {
	holder         span
	found, unknown bool
}

// side reads the function of path at rev holding most of lines.
func (v *versions) side(rev, path string, lines []int) (side, error) {
	if path == "" {
		return side{}, nil
	}
	funcs, ok, err := v.funcs(rev, path)
	if err != nil || !ok {
		return side{unknown: true}, err
	}
	var s side
	most := 0
	for _, f := range funcs {
		if n := f.count(lines); n > most {
			s.holder, s.found, most = f, true, n
		}
	}
	return s, nil
}

// touched reports whether one of the lines changed on this side is in
// its holder; on a side it cannot see, any change counts (the check
// leaves in what it cannot judge).
func (s side) touched(changed []int) bool {
	if s.unknown {
		return len(changed) > 0
	}
	return s.found && s.holder.count(changed) > 0
}

// count is how many of lines are within the function.
func (f span) count(lines []int) int {
	n := 0
	for _, l := range lines {
		if l >= f.start && l <= f.end {
			n++
		}
	}
	return n
}
