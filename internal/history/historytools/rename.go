package historytools

import "fmt"

// Rename is a commit that renamed or moved the file an entity is (or is
// in), through which its history runs back: the Changes before it were
// recorded under the old path.
type Rename struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Commit    string `json:"commit,omitempty"`
	Timestamp string `json:"timestamp"`
	// Change is the id of the Change that recorded the rename.
	Change string `json:"change"`
}

// renames finds the renames among an entity's changes, given newest
// first (those a git import recorded with renamed_from), and the path of
// its file now ("" when its entity has none): each renamed the path the
// older one named into the path the newer one names, the newest into the
// path now. Without a path, a Change's own key (the path it was recorded
// under) is the new path.
func renames(newestFirst []Change, now string) []Rename {
	var out []Rename
	to := now
	for _, c := range newestFirst {
		if c.RenamedFrom == "" {
			continue
		}
		if to == "" {
			to = c.Key
		}
		out = append(out, Rename{From: c.RenamedFrom, To: to, Commit: c.Commit, Timestamp: c.Timestamp, Change: c.ID})
		to = c.RenamedFrom
	}
	return out
}

// renameNote says where a history runs back through a rename.
func renameNote(r Rename) string {
	return fmt.Sprintf("the history runs back through a rename: %s → %s in commit %s (%s); the changes before it were recorded under %s", r.From, r.To, r.Commit, r.Timestamp, r.From)
}
