package gitimport

import (
	"context"
	"errors"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// importer holds one import's names, state and batch.
type importer struct {
	d     neo4j.DriverWithContext
	m     *model.Model
	opts  Options
	t     *change.Tracking
	git   *model.GitImport
	file  *model.Entity
	scope *model.Entity
	// lookupQ reads files and their scopes; fileQ and scopeQ write
	// Changes of files and of scopes ("" without scopes); staleQ lists
	// the import-made Changes of files (and of their scopes, staleScopeQ);
	// orderQ numbers the changes of files and of their scopes ("" when
	// the config names no order property).
	lookupQ, fileQ, scopeQ, staleQ, staleScopeQ, orderQ string
	// prefix is the imported directory's path in the repository.
	prefix  string
	blobs   *Blobs
	lineage *lineage
	// merges says which file changes no merge kept (nil: no merges).
	merges *simplification
	// graphFiles holds the graph's files by path as looked up (nil: no node).
	graphFiles map[string]*graphFile
	// parsed caches the declarations of file versions by object name.
	parsed map[string][]decl
	// written are the keys of the Changes this import wrote.
	written map[string]bool
	batch   []*Commit
	// batchFiles counts the batch's file changes.
	batchFiles int
	stats      Stats
}

func newImporter(d neo4j.DriverWithContext, m *model.Model, opts Options) (*importer, error) {
	t, err := change.New(m)
	if err != nil {
		return nil, err
	}
	if t == nil || t.Git == nil {
		return nil, errors.New("gitimport: the config declares no change_tracking.git block (which entity is a file, and by which path field)")
	}
	if m.Tenant != nil && opts.Tenant == "" {
		return nil, fmt.Errorf("gitimport: the config is scoped by tenant field %s; name the tenant the history belongs to", m.Tenant.Field)
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	im := &importer{d: d, m: m, opts: opts, t: t, git: t.Git, file: m.Entity(t.Git.FileEntity),
		lineage: newLineage(), graphFiles: map[string]*graphFile{}, parsed: map[string][]decl{}, written: map[string]bool{}}
	if t.Git.ScopeEntity != "" {
		im.scope = m.Entity(t.Git.ScopeEntity)
	}
	if im.file == nil || t.Git.ScopeEntity != "" && im.scope == nil {
		return nil, fmt.Errorf("gitimport: change_tracking.git names an entity the config does not declare")
	}
	if err := im.statements(); err != nil {
		return nil, fmt.Errorf("gitimport: %w", err)
	}
	return im, nil
}

// statements writes the import's statements from the model's names, each
// escaped; the error is a name that cannot be, which validation prevents.
func (im *importer) statements() error {
	var err error
	q := func(name string) string {
		out, e := ident.Quote(name)
		if e != nil && err == nil {
			err = e
		}
		return out
	}
	tp := ""
	if im.t.TenantField != "" {
		tp = ", " + im.t.Q.Tenant + ": $tenant"
	}
	c := im.t.Q
	im.lookupQ = "UNWIND $paths AS p\nMATCH (f:" + q(im.file.Name) + " {" + q(im.git.FilePath) + ": p" + tp + "})\n"
	im.staleQ = "UNWIND $paths AS p\nMATCH (:" + q(im.file.Name) + " {" + q(im.git.FilePath) + ": p" + tp + "})-[:" + c.Rel + "]->(c:" + c.Label + ")\n" +
		"WHERE c." + c.Fields.Key + " STARTS WITH $prefix\nRETURN c." + c.Fields.Key + " AS key"
	if im.scope != nil {
		name := "null"
		if im.git.ScopeName != "" {
			name = "s." + q(im.git.ScopeName)
		}
		im.lookupQ += "OPTIONAL MATCH (s:" + q(im.scope.Name) + " {" + q(im.git.ScopeFile) + ": p" + tp + "})\n" +
			"RETURN p, collect([s." + q(im.scope.UniqueField) + ", s." + q(im.git.ScopeStart) + ", s." + q(im.git.ScopeEnd) + ", " + name + "]) AS scopes"
		im.staleScopeQ = "UNWIND $paths AS p\nMATCH (:" + q(im.scope.Name) + " {" + q(im.git.ScopeFile) + ": p" + tp + "})-[:" + c.Rel + "]->(c:" + c.Label + ")\n" +
			"WHERE c." + c.Fields.Key + " STARTS WITH $prefix\nRETURN c." + c.Fields.Key + " AS key"
	} else {
		im.lookupQ += "RETURN DISTINCT p, [] AS scopes"
	}
	tenantSet := ""
	if im.t.TenantField != "" {
		tenantSet = ", c." + c.Tenant + " = $tenant"
	}
	// A Change is merged on its key (the commit and the node), so a rerun
	// sets the same properties on the same Change.
	write := func(e *model.Entity, field string) string {
		return "UNWIND $rows AS r\n" +
			"MATCH (n:" + q(e.Name) + " {" + q(field) + ": r.id" + tp + "})\n" +
			"MERGE (c:" + c.Label + " {" + c.Fields.Key + ": r.key})\n" +
			"SET c += r.props, c." + c.Fields.Timestamp + " = r.at" + tenantSet + "\n" +
			"MERGE (n)-[:" + c.Rel + "]->(c)"
	}
	if im.git.Order != "" {
		// Numbered oldest first, ties by key, so a rerun numbers alike.
		number := func(match string) string {
			return "CALL (p) {\n" + match + "-[r:" + c.Rel + "]->(c:" + c.Label + ")\n" +
				"WITH r ORDER BY c." + c.Fields.Timestamp + ", c." + c.Fields.Key + "\n" +
				"WITH collect(r) AS rs\nUNWIND range(1, size(rs)) AS i\nWITH rs[i - 1] AS r, i\nSET r." + q(im.git.Order) + " = i\n}\n"
		}
		im.orderQ = "UNWIND $paths AS p\n" + number("MATCH (:"+q(im.file.Name)+" {"+q(im.git.FilePath)+": p"+tp+"})")
		if im.scope != nil {
			im.orderQ += number("MATCH (:" + q(im.scope.Name) + " {" + q(im.git.ScopeFile) + ": p" + tp + "})")
		}
	}
	im.fileQ = write(im.file, im.git.FilePath)
	if im.scope != nil {
		im.scopeQ = write(im.scope, im.scope.UniqueField)
	}
	return err
}

// keyPrefix starts the key of every Change an import makes for the
// import's tenant.
func (im *importer) keyPrefix() string {
	if im.opts.Tenant != "" {
		return im.opts.Tenant + ":git:"
	}
	return "git:"
}

// row is one Change to write: the node's key, the Change's key (the
// commit and the node, so a rerun finds it) and its properties, with the
// file's earlier path when the commit renamed it.
func (im *importer) row(c *Commit, file *FileDiff, e *model.Entity, id, kind, diff string, added, removed int) map[string]any {
	f := im.t.Fields
	props := map[string]any{
		f.EntityType: e.Name, f.EntityKey: id, f.Kind: kind,
		f.LinesAdded: int64(added), f.LinesRemoved: int64(removed),
		f.Commit: c.Hash, f.Author: c.Author, f.Message: c.Subject,
	}
	if diff != "" {
		props[f.Diff] = diff
	}
	if file.Renamed() {
		props[f.RenamedFrom] = file.OldPath
	}
	key := im.keyPrefix() + c.Hash + ":" + e.Name + ":" + id
	im.written[key] = true
	return map[string]any{"id": id, "key": key, "at": c.Time, "props": props}
}

// write records rows as Changes with the statement stmt and returns how
// many Change nodes it made.
func (im *importer) write(ctx context.Context, tx neo4j.ManagedTransaction, stmt string, rows []map[string]any) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	res, err := tx.Run(ctx, stmt, map[string]any{"rows": rows, tenant.Param: im.opts.Tenant})
	if err != nil {
		return 0, err
	}
	sum, err := res.Consume(ctx)
	if err != nil {
		return 0, err
	}
	return sum.Counters().NodesCreated(), nil
}
