// Package schema embeds ragforge's CUE schema, the single source of truth for
// what a valid config (and a tool-catalog document) is. The same files are
// used by the stock `cue vet` command and, through [FS], by the engine.
package schema

import "embed"

// FS holds every .cue file of the schema package (package ragforge), so the
// binary validates configs with exactly the rules `cue vet` applies.
//
//go:embed *.cue
var FS embed.FS
