package main

import (
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// customTools are the tools m adds beside the generated ones (the tree
// tools of its declared trees, the write tools of its writable entities and
// relationship types, traverse when it declares a tenant), for the commands that list a catalog without a
// server (tools, vet, select); the engine adds the same to the catalogs it
// runs.
func customTools(m *model.Model) ([]tools.CustomTool, error) {
	r, err := tree.New(m, tree.Options{})
	if err != nil {
		return nil, err
	}
	return append(append(r.Tools(), write.New(m, write.Options{}).Tools()...), traverse.New(m, traverse.Options{})...), nil
}
