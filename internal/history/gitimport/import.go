package gitimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// DefaultBatchSize is how many file changes one write transaction holds.
const DefaultBatchSize = 500

// DefaultTimeout bounds one batch's transactions.
const DefaultTimeout = 2 * time.Minute

// Options say where the history goes and how.
type Options struct {
	Database string
	// Tenant owns the Changes and the nodes they are matched to; a
	// tenant-scoped config needs one.
	Tenant string
	// BatchSize is the file changes per batch (DefaultBatchSize if 0).
	BatchSize int
	// Timeout bounds each batch (DefaultTimeout if 0).
	Timeout time.Duration
	// Progress, when set, receives a line after each batch.
	Progress io.Writer
}

// Stats is what an import read and wrote.
type Stats struct {
	Commits int
	// Files and Scopes are the Changes written (made or found again).
	Files, Scopes int
	// Unmatched are the file changes whose path no File node has.
	Unmatched int
	Duration  time.Duration
}

func (s Stats) String() string {
	return fmt.Sprintf("%d commits: %d file changes, %d scope changes recorded; %d file changes of paths not in the graph skipped (%s)",
		s.Commits, s.Files, s.Scopes, s.Unmatched, s.Duration.Round(time.Millisecond))
}

// Import reads the history of the git work tree dir (paths relative to
// dir, so a subdirectory of a repository imports just its part) and
// records it as Changes of m's git-mapped entities.
func Import(ctx context.Context, d neo4j.DriverWithContext, m *model.Model, dir string, opts Options) (Stats, error) {
	start := time.Now()
	im, err := newImporter(d, m, opts)
	if err != nil {
		return Stats{}, err
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "-c", "core.quotePath=false", "log", "--reverse", "--no-merges",
		"--no-renames", "--relative", "--no-color", "--no-ext-diff", "-p", logFormat)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Stats{}, err
	}
	if err := cmd.Start(); err != nil {
		return Stats{}, fmt.Errorf("gitimport: running git: %w", err)
	}
	readErr := im.read(ctx, newReader(out, im.t.MaxDiffBytes))
	if readErr != nil {
		// Stop git rather than wait for it to write the rest.
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	im.stats.Duration = time.Since(start)
	if readErr != nil {
		return im.stats, readErr
	}
	if waitErr != nil {
		return im.stats, fmt.Errorf("gitimport: git log in %s: %v: %s", dir, waitErr, strings.TrimSpace(stderr.String()))
	}
	return im.stats, nil
}

// importer holds one import's names and batch.
type importer struct {
	d     neo4j.DriverWithContext
	m     *model.Model
	opts  Options
	t     *change.Tracking
	git   *model.GitImport
	file  *model.Entity
	scope *model.Entity
	// lookupQ reads a batch's files and their scopes' ranges; fileQ and
	// scopeQ write Changes of files and of scopes ("" without scopes).
	lookupQ, fileQ, scopeQ string
	batch                  []*Commit
	// files counts the batch's file changes.
	files int
	stats Stats
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
	im := &importer{d: d, m: m, opts: opts, t: t, git: t.Git, file: m.Entity(t.Git.FileEntity)}
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
	im.lookupQ = "UNWIND $paths AS p\nMATCH (f:" + q(im.file.Name) + " {" + q(im.git.FilePath) + ": p" + tp + "})\n"
	if im.scope != nil {
		im.lookupQ += "OPTIONAL MATCH (s:" + q(im.scope.Name) + " {" + q(im.git.ScopeFile) + ": p" + tp + "})\n" +
			"RETURN p, collect([s." + q(im.scope.UniqueField) + ", s." + q(im.git.ScopeStart) + ", s." + q(im.git.ScopeEnd) + "]) AS scopes"
	} else {
		im.lookupQ += "RETURN DISTINCT p, [] AS scopes"
	}
	c := im.t.Q
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
	im.fileQ = write(im.file, im.git.FilePath)
	if im.scope != nil {
		im.scopeQ = write(im.scope, im.scope.UniqueField)
	}
	return err
}

// read streams the commits into batches.
func (im *importer) read(ctx context.Context, r *reader) error {
	for {
		c, err := r.Next()
		if err == io.EOF {
			return im.flush(ctx)
		}
		if err != nil {
			return fmt.Errorf("gitimport: %w", err)
		}
		im.stats.Commits++
		im.batch = append(im.batch, c)
		im.files += len(c.Files)
		if im.files >= im.opts.BatchSize {
			if err := im.flush(ctx); err != nil {
				return err
			}
		}
	}
}

// span is a scope's line range.
type span struct {
	key        string
	start, end int
}

// flush writes the batch's Changes in one transaction.
func (im *importer) flush(ctx context.Context) error {
	if len(im.batch) == 0 {
		return nil
	}
	paths := map[string]bool{}
	for _, c := range im.batch {
		for _, f := range c.Files {
			if f.Path != "" {
				paths[f.Path] = true
			}
		}
	}
	_, err := neo4jtx.Write(ctx, im.d, im.opts.Database, im.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		scopes, err := im.lookup(ctx, tx, paths)
		if err != nil {
			return nil, err
		}
		var fileRows, scopeRows []map[string]any
		unmatched := 0
		for _, c := range im.batch {
			for _, f := range c.Files {
				spans, ok := scopes[f.Path]
				if !ok {
					unmatched++
					continue
				}
				fileRows = append(fileRows, im.row(c, im.file, f.Path, f.Kind, f.Diff(im.t.MaxDiffBytes), f.Added, f.Removed))
				kind := change.Updated
				if f.Kind == change.Created {
					kind = change.Created
				}
				for _, s := range spans {
					if diff, added, removed, ok := touching(f, s, im.t.MaxDiffBytes); ok {
						scopeRows = append(scopeRows, im.row(c, im.scope, s.key, kind, diff, added, removed))
					}
				}
			}
		}
		if err := im.write(ctx, tx, im.fileQ, fileRows); err != nil {
			return nil, err
		}
		if err := im.write(ctx, tx, im.scopeQ, scopeRows); err != nil {
			return nil, err
		}
		im.stats.Files += len(fileRows)
		im.stats.Scopes += len(scopeRows)
		im.stats.Unmatched += unmatched
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("gitimport: writing the changes of commits %s..%s: %w", short(im.batch[0].Hash), short(im.batch[len(im.batch)-1].Hash), err)
	}
	im.batch, im.files = im.batch[:0], 0
	if im.opts.Progress != nil {
		fmt.Fprintf(im.opts.Progress, "history: %s\n", im.stats)
	}
	return nil
}

func short(hash string) string { return hash[:min(len(hash), 12)] }

// lookup returns, for each path a File node has, the line ranges of its
// scopes (empty without a scope mapping).
func (im *importer) lookup(ctx context.Context, tx neo4j.ManagedTransaction, paths map[string]bool) (map[string][]span, error) {
	list := make([]string, 0, len(paths))
	for p := range paths {
		list = append(list, p)
	}
	res, err := tx.Run(ctx, im.lookupQ, map[string]any{"paths": list, tenant.Param: im.opts.Tenant})
	if err != nil {
		return nil, err
	}
	recs, err := res.Collect(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]span{}
	for _, r := range recs {
		p, _ := r.Values[0].(string)
		spans := []span{}
		for _, x := range r.Values[1].([]any) {
			v := x.([]any)
			key, ok1 := v[0].(string)
			start, ok2 := v[1].(int64)
			end, ok3 := v[2].(int64)
			if ok1 && ok2 && ok3 {
				spans = append(spans, span{key: key, start: int(start), end: int(end)})
			}
		}
		out[p] = spans
	}
	return out, nil
}

// touching returns the hunks of f with a changed line in s's range, cut
// at max bytes, and the lines they add and remove there; ok is false when
// no changed line falls in it.
func touching(f *FileDiff, s span, max int) (diff string, added, removed int, ok bool) {
	in := func(n int) bool { return n >= s.start && n <= s.end }
	var b strings.Builder
	for _, h := range f.Hunks {
		a, r := 0, 0
		for _, n := range h.Adds {
			if in(n) {
				a++
			}
		}
		for _, n := range h.Dels {
			if in(n) {
				r++
			}
		}
		if a+r > 0 {
			b.WriteString(h.Text())
			added, removed = added+a, removed+r
		}
	}
	if added+removed == 0 {
		return "", 0, 0, false
	}
	return change.Cut(b.String(), max), added, removed, true
}

// row is one Change to write: the node's key, the Change's key (the
// commit and the node, so a rerun finds it) and its properties.
func (im *importer) row(c *Commit, e *model.Entity, id, kind, diff string, added, removed int) map[string]any {
	f := im.t.Fields
	props := map[string]any{
		f.EntityType: e.Name, f.EntityKey: id, f.Kind: kind,
		f.LinesAdded: int64(added), f.LinesRemoved: int64(removed),
		f.Commit: c.Hash, f.Author: c.Author, f.Message: c.Subject,
	}
	if diff != "" {
		props[f.Diff] = diff
	}
	key := "git:" + c.Hash + ":" + e.Name + ":" + id
	if im.opts.Tenant != "" {
		key = im.opts.Tenant + ":" + key
	}
	return map[string]any{"id": id, "key": key, "at": c.Time, "props": props}
}

// write records rows as Changes with the statement stmt.
func (im *importer) write(ctx context.Context, tx neo4j.ManagedTransaction, stmt string, rows []map[string]any) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := tx.Run(ctx, stmt, map[string]any{"rows": rows, tenant.Param: im.opts.Tenant})
	return err
}
