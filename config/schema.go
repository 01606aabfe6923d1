package config

import (
	"fmt"
	"io/fs"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"

	"github.com/ragforge/ragforge/schema"
)

// cueMu serializes every use of the compiled schema: CUE values are not safe
// for concurrent use, and configs are loaded rarely (at start-up), so one
// lock costs nothing and lets an application load configs from several
// goroutines.
var cueMu sync.Mutex

// schemaContext is the context the schema is built in; configs are built in
// it too (under cueMu), which makes unifying them with #Config cheaper than
// crossing contexts.
var schemaContext = cuecontext.New()

// compiledSchema is the embedded CUE schema, built once per process: every
// Load unifies its config with the same #Config value, in the same context.
var compiledSchema = sync.OnceValues(func() (cue.Value, error) {
	ctx := schemaContext
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
		f, err := parser.ParseFile("schema/"+name, src)
		if err != nil {
			return cue.Value{}, fmt.Errorf("embedded schema %s: %w", name, err)
		}
		if err := inst.AddSyntax(f); err != nil {
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

// DecodeSchema decodes the value at path in the embedded schema (e.g.
// "#Directions" or "#ModesByType") into v. Packages whose Go code names
// what the schema also names (directions, modes, operators) test their
// constants against it with this, so the schema stays the one definition.
func DecodeSchema(path string, v any) error {
	cueMu.Lock()
	defer cueMu.Unlock()
	s, err := compiledSchema()
	if err != nil {
		return err
	}
	x := s.LookupPath(cue.ParsePath(path))
	if !x.Exists() {
		return fmt.Errorf("the embedded schema has no %s", path)
	}
	return x.Decode(v)
}
