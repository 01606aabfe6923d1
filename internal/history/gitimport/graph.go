package gitimport

import (
	"context"
	"fmt"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/tenant"
)

// graphFile is a file node of the graph and its scopes.
type graphFile struct {
	scopes []graphScope
	// decls maps the file's declaration keys (as of the commit being
	// read) to scope keys; nil until first needed.
	decls map[string]string
}

// graphScope is a scope node: its key, its lines and its name ("" when
// the config maps none).
type graphScope struct {
	key, name  string
	start, end int
}

// lookup reads the batch's files that no earlier batch looked up.
func (im *importer) lookup(ctx context.Context) error {
	var paths []string
	for _, c := range im.batch {
		for _, f := range c.Files {
			if _, seen := im.graphFiles[f.head]; !seen && f.head != "" {
				im.graphFiles[f.head] = nil
				paths = append(paths, f.head)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	recs, err := neo4jtx.Query(ctx, im.d, im.opts.Database, neo4j.AccessModeRead, im.lookupQ, map[string]any{"paths": paths, tenant.Param: im.opts.Tenant})
	if err != nil {
		return err
	}
	for _, r := range recs {
		p, _ := r.Values[0].(string)
		file := &graphFile{}
		for _, x := range r.Values[1].([]any) {
			v := x.([]any)
			key, ok1 := v[0].(string)
			start, ok2 := v[1].(int64)
			end, ok3 := v[2].(int64)
			name, _ := v[3].(string)
			if ok1 && ok2 && ok3 {
				file.scopes = append(file.scopes, graphScope{key: key, name: name, start: int(start), end: int(end)})
			}
		}
		im.graphFiles[p] = file
	}
	return nil
}

// declsOf returns the declaration keys of the file at path, matching its
// version at HEAD to the graph's scopes by first line (and name, when
// the config maps one) the first time.
func (im *importer) declsOf(path string, file *graphFile) (map[string]string, error) {
	if file.decls != nil {
		return file.decls, nil
	}
	file.decls = map[string]string{}
	src, ok, err := im.blobs.Read("HEAD:" + im.prefix + path)
	if err != nil {
		return nil, err
	}
	var ds []decl
	if ok {
		if ds, err = decls(src); err != nil {
			im.stats.note("%s does not parse at HEAD (%v): its scopes get no history", path, err)
		}
	}
	type at struct {
		start int
		name  string
	}
	byLine := map[at][]decl{}
	for _, d := range ds {
		byLine[at{d.start, d.name}] = append(byLine[at{d.start, d.name}], d)
		if im.git.ScopeName == "" {
			byLine[at{d.start, ""}] = append(byLine[at{d.start, ""}], d)
		}
	}
	unmatched := 0
	for _, s := range file.scopes {
		cands := byLine[at{s.start, s.name}]
		if len(cands) != 1 {
			unmatched++
			continue
		}
		file.decls[cands[0].key] = s.key
	}
	if unmatched > 0 {
		im.stats.note("%s: %d of its scopes match no declaration of its version at HEAD by line%s (was the tree loaded from another version?); they get no history",
			path, unmatched, map[bool]string{true: " and name", false: ""}[im.git.ScopeName != ""])
	}
	return file.decls, nil
}

// maxParsed bounds the cache of parsed file versions.
const maxParsed = 4096

// parse returns the declarations of the file version blob; nil when it
// does not parse, which the report notes.
func (im *importer) parse(blob, path string, c *Commit) ([]decl, error) {
	if ds, ok := im.parsed[blob]; ok {
		return ds, nil
	}
	src, ok, err := im.blobs.Read(blob)
	if err != nil {
		return nil, err
	}
	var ds []decl
	if !ok {
		im.stats.note("commit %s: %s's content %s is missing from the repository: its declarations' changes there are not recorded", short(c.Hash), path, short(blob))
	} else if ds, err = decls(src); err != nil {
		im.stats.note("commit %s: %s does not parse (%v): its declarations' changes there are not recorded", short(c.Hash), path, err)
		ds = nil
	} else if ds == nil {
		ds = []decl{}
	}
	if len(im.parsed) >= maxParsed {
		clear(im.parsed)
	}
	im.parsed[blob] = ds
	return ds, nil
}

// removeStale deletes the Changes an earlier import made on the files
// this one read (and on their scopes) that this import did not make
// again, so a rerun after a change of attribution leaves no wrong link.
func (im *importer) removeStale(ctx context.Context) error {
	paths := im.headPaths()
	var stale []string
	for chunk := range slices.Chunk(paths, im.opts.BatchSize) {
		for _, q := range []string{im.staleQ, im.staleScopeQ} {
			if q == "" {
				continue
			}
			recs, err := neo4jtx.Query(ctx, im.d, im.opts.Database, neo4j.AccessModeRead, q, map[string]any{"paths": chunk, "prefix": im.keyPrefix(), tenant.Param: im.opts.Tenant})
			if err != nil {
				return fmt.Errorf("gitimport: reading earlier imports' changes: %w", err)
			}
			for _, r := range recs {
				if k, _ := r.Values[0].(string); !im.written[k] {
					stale = append(stale, k)
				}
			}
		}
	}
	q := im.t.Q
	del := "UNWIND $keys AS k\nMATCH (c:" + q.Label + " {" + q.Fields.Key + ": k})\nDETACH DELETE c"
	for chunk := range slices.Chunk(stale, im.opts.BatchSize) {
		if _, err := neo4jtx.Query(ctx, im.d, im.opts.Database, neo4j.AccessModeWrite, del, map[string]any{"keys": chunk}); err != nil {
			return fmt.Errorf("gitimport: deleting earlier imports' changes: %w", err)
		}
		im.stats.Stale += len(chunk)
	}
	return nil
}

// headPaths lists, sorted, the paths of the graph's files this import
// met.
func (im *importer) headPaths() []string {
	var paths []string
	for p, f := range im.graphFiles {
		if f != nil {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// number numbers the changes of the files this import met, and of their
// scopes, on the config's order property, oldest first.
func (im *importer) number(ctx context.Context) error {
	if im.orderQ == "" {
		return nil
	}
	paths := im.headPaths()
	for chunk := range slices.Chunk(paths, im.opts.BatchSize) {
		if _, err := neo4jtx.Query(ctx, im.d, im.opts.Database, neo4j.AccessModeWrite, im.orderQ, map[string]any{"paths": chunk, tenant.Param: im.opts.Tenant}); err != nil {
			return fmt.Errorf("gitimport: numbering the changes: %w", err)
		}
	}
	return nil
}
