package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/encoding/json"
	"cuelang.org/go/encoding/yaml"

	"github.com/ragforge/ragforge/model"
)

// MaxConfigBytes bounds one config file: a config describes a schema, not
// data, so anything larger is a mistake (or an attack on the loader).
const MaxConfigBytes = 4 << 20

// Source is one config file's name (used in error positions) and content.
type Source struct {
	Name string
	Data []byte
}

// Load reads YAML (.yaml, .yml), JSON (.json) and CUE (.cue) config files,
// unifies them with each other and with the embedded schema, validates them
// and returns the typed model. Several files are unified as CUE unifies
// values: a struct may be split across files, a list must agree element by
// element. On failure the error is a [ConfigErrors] listing every problem.
func Load(paths ...string) (*model.Model, error) {
	srcs := make([]Source, 0, len(paths))
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, ConfigErrors{{Pos: model.Pos{File: p}, Msg: fmt.Sprintf("cannot read config: %v", unwrapPathError(err))}}
		}
		if info.IsDir() {
			return nil, ConfigErrors{{Pos: model.Pos{File: p}, Msg: "is a directory (give the config files themselves)"}}
		}
		if info.Size() > MaxConfigBytes {
			return nil, ConfigErrors{{Pos: model.Pos{File: p}, Msg: fmt.Sprintf("config is %d bytes (at most %d)", info.Size(), MaxConfigBytes)}}
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, ConfigErrors{{Pos: model.Pos{File: p}, Msg: fmt.Sprintf("cannot read config: %v", unwrapPathError(err))}}
		}
		srcs = append(srcs, Source{Name: p, Data: data})
	}
	return LoadSources(srcs...)
}

// LoadSources is [Load] for configs already in memory; the file name's
// extension selects the format.
func LoadSources(srcs ...Source) (*model.Model, error) {
	if len(srcs) == 0 {
		return nil, ConfigErrors{{Msg: "no config file given"}}
	}
	cueMu.Lock()
	defer cueMu.Unlock()
	def, err := configDef()
	if err != nil {
		return nil, err
	}
	ctx := schemaContext
	var data cue.Value
	var errs ConfigErrors
	for i, src := range srcs {
		if len(src.Data) > MaxConfigBytes {
			errs = append(errs, errorf(model.Pos{File: src.Name}, "", "config is %d bytes (at most %d)", len(src.Data), MaxConfigBytes))
			continue
		}
		f, perr := parseSource(src)
		if perr != nil {
			errs = append(errs, perr...)
			continue
		}
		v := ctx.BuildFile(f)
		if err := v.Err(); err != nil {
			errs = append(errs, translate(err, cue.Value{}, cue.Value{})...)
			continue
		}
		if i == 0 || !data.Exists() {
			data = v
		} else {
			data = data.Unify(v)
		}
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	if err := data.Err(); err != nil {
		return nil, translate(err, cue.Value{}, def).sorted()
	}
	if data.IncompleteKind() != cue.StructKind {
		return nil, ConfigErrors{{Pos: posOf(data), Msg: "a config is a mapping with an entities list at the top level"}}
	}
	v := def.Unify(data)
	errs = unknownKeys(data, def)
	if err := v.Validate(cue.All(), cue.Concrete(true), cue.Hidden(true)); err != nil {
		errs = append(errs, translate(err, data, def)...)
	}
	if len(errs) > 0 {
		if pm := passedEntities(v, data, errs); pm != nil {
			errs = append(errs, checkComputed(pm, srcs)...)
		}
		return nil, errs.sorted()
	}
	m, err := decode(v, data)
	if err != nil {
		return nil, err
	}
	if errs := checkComputed(m, srcs); len(errs) > 0 {
		return nil, errs.sorted()
	}
	trust(m)
	return m, nil
}

// parseSource turns one file into a CUE AST, keeping positions so errors
// point into the user's file.
func parseSource(src Source) (*ast.File, ConfigErrors) {
	var (
		f   *ast.File
		err error
	)
	switch ext := strings.ToLower(filepath.Ext(src.Name)); ext {
	case ".yaml", ".yml":
		f, err = yaml.Extract(src.Name, src.Data)
	case ".json":
		var expr ast.Expr
		expr, err = json.Extract(src.Name, src.Data)
		if err == nil {
			f = &ast.File{Filename: src.Name, Decls: []ast.Decl{&ast.EmbedDecl{Expr: expr}}}
		}
	case ".cue":
		f, err = parser.ParseFile(src.Name, src.Data)
	default:
		return nil, ConfigErrors{errorf(model.Pos{File: src.Name}, "", "unknown config format %q (allowed: .yaml, .yml, .json, .cue)", ext)}
	}
	if err != nil {
		errs := translate(err, cue.Value{}, cue.Value{})
		if ext := strings.ToLower(filepath.Ext(src.Name)); ext == ".yaml" || ext == ".yml" {
			if ce, ok := yamlSyntaxError(src.Name, src.Data); ok {
				return nil, ConfigErrors{ce}
			}
			for i := range errs {
				if errs[i].Pos.Line > 0 {
					errs[i].Pos.Col = yamlValueColumn(src.Data, errs[i].Pos.Line)
				}
			}
		}
		return nil, errs
	}
	return f, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
