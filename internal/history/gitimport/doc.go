// Package gitimport loads a git repository's history as Changes (package
// change): every commit becomes a Change of each File node whose path it
// touches (kind created, updated or deleted; the file's diff; lines added
// and removed; the commit, its author, time and subject) and of each
// Scope node of that file whose line range a changed line falls in (the
// hunks that touch it, their lines ±).
//
// It reads `git log -p` through the git command (argv, no shell) as a
// stream, one commit at a time, and writes in batches, so memory is
// bounded by a batch, not by the history. A Change is keyed by its commit
// and its node, so a rerun updates the Changes it made instead of adding
// others.
//
// Scopes are matched by their current line range (the loaded tree's): a
// commit's line numbers are those after it, so the match is exact for the
// latest commit touching a file and approximate for older ones, whose
// lines later commits may have moved.
package gitimport
