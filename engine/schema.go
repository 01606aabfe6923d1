package engine

import (
	"fmt"
	"io/fs"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"

	"github.com/ragforge/ragforge/schema"
)

// compiledSchema is the embedded CUE schema, built once per process: every
// Load unifies its config with the same #Config value.
var compiledSchema = sync.OnceValues(func() (cue.Value, error) {
	ctx := cuecontext.New()
	inst := build.NewContext().NewInstance("ragforge", nil)
	files, err := fs.Glob(schema.FS, "*.cue")
	if err != nil {
		return cue.Value{}, err
	}
	for _, name := range files {
		src, err := fs.ReadFile(schema.FS, name)
		if err != nil {
			return cue.Value{}, err
		}
		if err := inst.AddFile("schema/"+name, src); err != nil {
			return cue.Value{}, fmt.Errorf("embedded schema %s: %w", name, err)
		}
	}
	v := ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		return cue.Value{}, fmt.Errorf("embedded schema: %w", err)
	}
	return v, nil
})

// configDef returns the #Config definition of the embedded schema.
func configDef() (cue.Value, error) {
	v, err := compiledSchema()
	if err != nil {
		return cue.Value{}, err
	}
	def := v.LookupPath(cue.ParsePath("#Config"))
	if !def.Exists() {
		return cue.Value{}, fmt.Errorf("embedded schema has no #Config")
	}
	return def, nil
}
