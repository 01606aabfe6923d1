// Package gitimport loads a git repository's history as Changes (package
// change): every commit becomes a Change of each File node whose path it
// touches (kind created, updated or deleted; the file's diff; lines added
// and removed; the commit, its author, time and subject) and of each Scope
// node whose declaration its hunks touch (the hunks that touch it, their
// lines ±).
//
// Declarations are found by parsing each changed Go file's version before
// and after the commit (go/parser; the versions come from one `git
// cat-file --batch`), not by today's line ranges: a hunk touches a
// declaration when it removes a line of the declaration's lines before the
// commit or adds one in its lines after. The log is read newest first
// (--topo-order), so at each commit the import knows which of today's
// files a path became (git's rename detection, -M: a history runs back
// through renames and moves, and the Change of the renaming commit holds
// the earlier path) and which of today's declarations a declaration of
// that time is: a declaration continues the one before the commit that
// holds most of its unchanged lines of code, among declarations of its
// sort (a function or method, or not; so a new name or receiver keeps the
// history, a function split in two hands it to the part that kept most
// lines, and a brace the diff aligns ties nothing), else the one of its
// own key (its name, Recv.Name for a method, with a counter for repeated
// names such as init); a declaration written whole continues the one of
// its key (or name) only where one run of the diff's changed lines
// replaced that one's (moved, or written over other code, it starts
// there, as git log -L restarts it); a declaration the commit introduced
// has no history before it. Today's declarations are matched to Scope nodes by file,
// first line and name as the version at HEAD has them. Merge commits are
// skipped (their changes are the merged commits'), and the history of each
// file is simplified as git log -- FILE simplifies it: at a merge that
// equals one parent's version of the file, the other branches' changes of
// that file are not recorded (they did not reach the merge); changes of
// declarations that no longer exist have no node to hold them and are
// counted, not written.
//
// It reads `git log -p` through the git command (argv, no shell) as a
// stream and writes in batches, so memory is bounded by a batch plus the
// keys of the Changes written and the declaration keys of the files met. A
// Change is keyed by its commit and its node, so a rerun finds the Changes
// it made; Changes an earlier import made on the same files and did not
// make again (an older attribution) are deleted at the end.
package gitimport
