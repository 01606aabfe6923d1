package gitimport

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
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

// Import reads the history of the git work tree dir (paths relative to
// dir, so a subdirectory of a repository imports just its part) and
// records it as Changes of m's git-mapped entities.
func Import(ctx context.Context, d neo4j.DriverWithContext, m *model.Model, dir string, opts Options) (Stats, error) {
	start := time.Now()
	im, err := newImporter(d, m, opts)
	if err != nil {
		return Stats{}, err
	}
	if im.prefix, err = workTree(ctx, dir, &im.stats); err != nil {
		return Stats{}, err
	}
	if im.blobs, err = OpenBlobs(ctx, dir); err != nil {
		return Stats{}, fmt.Errorf("gitimport: %w", err)
	}
	defer im.blobs.Close()
	if im.merges, err = simplify(ctx, dir, im.prefix, im.blobs); err != nil {
		return Stats{}, fmt.Errorf("gitimport: reading the merges of %s: %w", dir, err)
	}
	// Newest first, children before parents (--topo-order), so the
	// lineage of today's files and declarations is known at each commit.
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "-c", "core.quotePath=false", "log", "--topo-order", "--no-merges",
		"-M", "--full-index", "--relative", "--no-color", "--no-ext-diff", "-p", logFormat)
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
	if readErr == nil && waitErr != nil {
		readErr = fmt.Errorf("gitimport: git log in %s: %v: %s", dir, waitErr, strings.TrimSpace(stderr.String()))
	}
	if readErr == nil {
		readErr = im.removeStale(ctx)
	}
	if readErr == nil {
		readErr = im.number(ctx)
	}
	im.stats.Duration = time.Since(start)
	return im.stats, readErr
}

// workTree checks that dir is in a git work tree with commits and returns
// dir's path within it; a shallow clone and skipped merges are noted.
func workTree(ctx context.Context, dir string, stats *Stats) (string, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	prefix, err := git("rev-parse", "--show-prefix")
	if err != nil {
		return "", fmt.Errorf("gitimport: %s is not in a git work tree (git rev-parse: %s)", dir, prefix)
	}
	if _, err := git("rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		return "", fmt.Errorf("gitimport: the repository of %s has no commits yet", dir)
	}
	if shallow, _ := git("rev-parse", "--is-shallow-repository"); shallow == "true" {
		stats.note("the repository is a shallow clone: its history starts at the oldest fetched commit, whose files count as created there (git fetch --unshallow imports the rest)")
	}
	if merges, _ := git("rev-list", "--merges", "--count", "HEAD", "--", "."); merges != "" && merges != "0" {
		stats.note("%s merge commits skipped: a merge's changes are recorded on the commits it merges", merges)
	}
	return prefix, nil
}

// read streams the commits into batches, following each file back to
// its HEAD path as it goes.
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
		for _, f := range c.Files {
			f.head = im.lineage.head(f.Path)
		}
		im.lineage.through(c.Files)
		im.batch = append(im.batch, c)
		im.batchFiles += len(c.Files)
		if im.batchFiles >= im.opts.BatchSize {
			if err := im.flush(ctx); err != nil {
				return err
			}
		}
	}
}

// flush writes the batch's Changes in one transaction.
func (im *importer) flush(ctx context.Context) error {
	if len(im.batch) == 0 {
		return nil
	}
	if err := im.lookup(ctx); err != nil {
		return fmt.Errorf("gitimport: reading the graph's files: %w", err)
	}
	var fileRows, scopeRows []map[string]any
	for _, c := range im.batch {
		for _, f := range c.Files {
			file := im.graphFiles[f.head]
			if f.head == "" || file == nil {
				im.stats.Unmatched++
				continue
			}
			// A file the merge took from another parent may still hold a
			// declaration it took from this one: scopeRows asks for each.
			if im.merges.hidden(c.Hash, f.Path) {
				im.stats.Simplified++
			} else {
				if f.Renamed() {
					im.stats.Renames++
				}
				fileRows = append(fileRows, im.row(c, f, im.file, f.head, f.Kind, f.Diff(im.t.MaxDiffBytes), f.Added, f.Removed))
			}
			rows, err := im.scopeRows(c, f, file)
			if err != nil {
				return err
			}
			scopeRows = append(scopeRows, rows...)
		}
	}
	created, err := neo4jtx.Write(ctx, im.d, im.opts.Database, im.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		made := 0
		for _, w := range []struct {
			q    string
			rows []map[string]any
		}{{im.fileQ, fileRows}, {im.scopeQ, scopeRows}} {
			n, err := im.write(ctx, tx, w.q, w.rows)
			if err != nil {
				return nil, err
			}
			made += n
		}
		return made, nil
	})
	if err != nil {
		return fmt.Errorf("gitimport: writing the changes of commits %s..%s: %w", short(im.batch[len(im.batch)-1].Hash), short(im.batch[0].Hash), err)
	}
	im.stats.Created += created.(int)
	im.stats.Files += len(fileRows)
	im.stats.Scopes += len(scopeRows)
	im.batch, im.batchFiles = im.batch[:0], 0
	if im.opts.Progress != nil {
		fmt.Fprintf(im.opts.Progress, "history: %s\n", im.stats.counts())
	}
	return nil
}

func short(hash string) string { return hash[:min(len(hash), 12)] }

// back moves a file's declaration keys (key → scope key) back through a
// commit: each declaration after it takes the key of the one it
// continues (succ); one the commit declared has no history before it. A
// declaration whose change no merge took (stay) stays as it is, for the
// branch whose change the merge took.
func back(keys map[string]string, after []decl, succ map[string]string, stay map[string]bool) {
	moved := map[string]string{}
	for _, d := range after {
		if id := keys[d.key]; id != "" && !stay[d.key] {
			delete(keys, d.key)
			if prev, ok := succ[d.key]; ok {
				moved[prev] = id
			}
		}
	}
	maps.Copy(keys, moved)
}

// scopeRows returns the Changes of the declarations f's hunks touch, and
// moves f's declarations back through the commit: one the commit
// declared has no history before it.
func (im *importer) scopeRows(c *Commit, f *FileDiff, file *graphFile) ([]map[string]any, error) {
	if im.scope == nil || len(file.scopes) == 0 || !isGo(f.Path) || f.Binary || len(f.Hunks) == 0 || f.Kind == change.Deleted {
		return nil, nil
	}
	keys, err := im.declsOf(f.head, file)
	if err != nil {
		return nil, err
	}
	after, err := im.parse(f.NewBlob, f.Path, c)
	if err != nil || after == nil {
		return nil, err
	}
	before, known := []decl{}, true
	if f.Kind != change.Created {
		var perr error
		if before, perr = im.parse(f.OldBlob, f.OldPath, c); perr != nil {
			return nil, perr
		}
		known = before != nil
	}
	var succ map[string]string
	if known {
		succ = successors(f, before, after)
	}
	hidden := map[string]bool{}
	for _, d := range after {
		if im.merges.hidden(c.Hash, item(f.Path, d.key)) {
			hidden[d.key] = true
		}
	}
	var rows []map[string]any
	for _, ch := range touched(f, before, after, succ) {
		if hidden[ch.key] {
			im.stats.Simplified++
			continue
		}
		id := keys[ch.key]
		if id == "" {
			im.stats.Gone++
			continue
		}
		kind := change.Updated
		if ch.created {
			kind = change.Created
		}
		var text strings.Builder
		for _, h := range ch.hunks {
			text.WriteString(h.Text())
		}
		rows = append(rows, im.row(c, f, im.scope, id, kind, change.Cut(text.String(), im.t.MaxDiffBytes), ch.added, ch.removed))
	}
	if known {
		back(keys, after, succ, hidden)
	}
	return rows, nil
}
