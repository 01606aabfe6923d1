// Package change is the Change node of a config's change_tracking block:
// the properties one change records (kind, the changed fields with their
// old and new values, a unified diff of text with the lines added and
// removed, provenance, time) and the statement that records it beside the
// changed node. The write tools record a Change in each write's
// transaction (a relationship write on each tracked end, naming the
// relationship: type, direction, other end); package gitimport records a repository's commits; package
// historytools reads them.
//
// Sizes are bounded: a diff and each old or new value are cut at the
// block's max_diff_bytes, saying so in the text, while the line counts
// count the whole diff.
package change
