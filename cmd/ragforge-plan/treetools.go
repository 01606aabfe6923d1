package main

import (
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tree"
)

// treeTools are the tree tools of m's declared trees (none without trees),
// for the commands that list a catalog without a server (tools, vet,
// select); the engine adds the same to the catalogs it runs.
func treeTools(m *model.Model) ([]tools.CustomTool, error) {
	r, err := tree.New(m, tree.Options{})
	if err != nil {
		return nil, err
	}
	return r.Tools(), nil
}
