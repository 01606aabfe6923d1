package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// The chunks of a regex or glob scan (measured in engine/MEASUREMENTS.md):
// they start at the statement's first chunk (planner.FirstScanChunk, or
// planner.FirstValueChunk in value order) candidates and double, up to
// maxScanChunk candidates and about maxScanBytes of matched text, so one
// chunk holds a bounded amount of memory on the server and here whatever
// the label's size and the length of its texts.
const (
	minScanChunk = 100
	maxScanChunk = 65536
	maxScanBytes = 4 << 20
)

// fetchReserve is the part of a call's remaining time a scan leaves for
// fetching the entities it kept: a fifth, at most a second. The scan stops
// reading candidates when only that is left, so a scan longer than the
// call's timeout answers with the matches it found (and says so) instead
// of a timeout error (docs/design.md, invariant 9).
func fetchReserve(left time.Duration) time.Duration { return min(left/5, time.Second) }

// scanReport is what a scan read, for the result's stats and notes.
type scanReport struct {
	// scanned counts the candidates matched against the pattern; matched
	// those that matched (in unique-field order at most the call's limit
	// plus one: the scan stops at the first match the page has no room
	// for; in value order all of them).
	scanned, matched int
	// complete is true when every candidate was read; deadline when the
	// scan stopped for the call's deadline.
	complete, deadline bool
}

// scan runs a regex or glob search (docs/design.md, invariant 5): it
// reads every candidate's id and text, chunk by chunk in unique-field
// order (st, then st.Next after the last id read), matches each text in
// Go, keeps the ids of the first matches up to the call's limit, and
// fetches those entities (st.Fetch). It stops when the page is full (plus
// one match, to say the result is truncated), when every candidate was
// read, or when the time left is the fetch's reserve. When the chunks
// come in value order (Filter.ValueOrder: a prefix a range index seeks),
// the first matches are not the page's, so it reads every candidate and
// keeps every match, and Fetch takes the page from them.
//
// The chunks and the fetch run in one read transaction, one round trip
// fewer than a transaction each (regex_number's one chunk and fetch:
// bench/handwritten). Each chunk runs under the scan's own deadline, so a
// chunk Neo4j is slow to produce is cut there; the transaction it was in
// is then lost, and the matches read before it are fetched in a
// transaction of their own, in the fetch's reserve.
func (e *Engine) scan(ctx context.Context, call Call, st *planner.Statement) (*Result, error) {
	match, err := st.Filter.Matcher()
	if err != nil {
		return nil, &tools.CallError{Tool: call.Name, Problems: []tools.Problem{{Path: st.Filter.Arg, Message: err.Error()}}}
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(e.opts.Timeout)
	}
	stop := deadline.Add(-fetchReserve(time.Until(deadline)))
	scanCtx, cancel := context.WithDeadline(ctx, stop)
	defer cancel()

	sh := newShaper(ctx, e, call.Name, st)
	var s scanState
	_, err = neo4jtx.Read(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		if scanCtx.Err() != nil && s.rep.scanned > 0 {
			// A retry after the scan's deadline: keep what was read.
			return nil, &scanCut{scanCtx.Err()}
		}
		s = scanState{}
		if err := s.read(scanCtx, tx, st, match, stop); err != nil {
			if scanCtx.Err() != nil && ctx.Err() == nil {
				return nil, &scanCut{err}
			}
			return nil, err
		}
		return nil, s.fetch(ctx, tx, st, sh)
	})
	var cut *scanCut
	switch {
	case errors.As(err, &cut) && s.rep.scanned == 0:
		return nil, &neo4jtx.TimeoutError{Err: cut.err}
	case cut != nil:
		// Past the scan's own deadline with candidates read: answer with
		// their matches.
		s.rep.deadline = true
		_, err = neo4jtx.Read(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
			return nil, s.fetch(ctx, tx, st, sh)
		})
	}
	if err != nil {
		return nil, err
	}
	sh.truncated = s.truncated || s.rep.deadline || len(s.kept) > st.Shape.Limit
	sh.scan = &s.rep
	return sh.result(), nil
}

// scanCut is a chunk cut by the scan's deadline. It does not unwrap to
// the driver's error, which the driver would retry.
type scanCut struct{ err error }

func (c *scanCut) Error() string {
	return "engine: a scan chunk ran past the scan's deadline: " + c.err.Error()
}

// scanState is what a scan's transaction read: the report, the kept ids,
// and whether the page filled up.
type scanState struct {
	rep       scanReport
	kept      []any
	truncated bool
}

// read reads the chunks of a scan in tx until the page is full, every
// candidate was read, or stop.
func (s *scanState) read(ctx context.Context, tx neo4j.ManagedTransaction, st *planner.Statement, match func(string) bool, stop time.Time) error {
	// In value order, the first matches read are not the page's: every
	// match is kept, and Fetch orders them and cuts the page.
	keepAll := st.Filter.ValueOrder != ""
	var after, afterValue any
	chunk, stmt := st.FirstChunk(), st
	for {
		if s.rep.scanned > 0 && !time.Now().Before(stop) {
			s.rep.deadline = true
			return nil
		}
		params := cloneParams(stmt.Params)
		params[planner.ScanChunk] = int64(chunk)
		if after != nil {
			params[planner.ScanAfter] = after
			params[planner.ScanAfterValue] = afterValue
		}
		start := time.Now()
		c, err := readChunk(ctx, tx, stmt.Cypher, params)
		if err != nil {
			return err
		}
		bytes := 0
		for i, v := range c.values {
			t, _ := v.(string)
			bytes += len(t)
			s.rep.scanned++
			if !match(t) {
				continue
			}
			s.rep.matched++
			if !keepAll && len(s.kept) >= st.Shape.Limit {
				s.truncated = true
				return nil
			}
			s.kept = append(s.kept, c.ids[i])
		}
		if len(c.ids) < chunk {
			s.rep.complete = true
			return nil
		}
		after, afterValue = c.ids[len(c.ids)-1], c.values[len(c.values)-1]
		chunk = nextChunk(chunk, bytes, time.Since(start), time.Until(stop))
		stmt = st.Next
	}
}

// chunkRows is one chunk of a scan: its candidates' ids and texts, in
// unique-field order.
type chunkRows struct{ ids, values []any }

// readChunk runs one chunk statement, whose one row holds the lists of
// ids and texts.
func readChunk(ctx context.Context, tx neo4j.ManagedTransaction, cypher string, params map[string]any) (chunkRows, error) {
	res, err := tx.Run(ctx, cypher, params)
	if err != nil {
		return chunkRows{}, err
	}
	rec, err := res.Single(ctx)
	if err != nil {
		return chunkRows{}, err
	}
	ids, _ := rec.Values[0].([]any)
	values, _ := rec.Values[1].([]any)
	if len(ids) != len(values) {
		return chunkRows{}, fmt.Errorf("engine: a scan chunk returned %d ids and %d values", len(ids), len(values))
	}
	return chunkRows{ids, values}, nil
}

// nextChunk sizes the chunk after one of n candidates holding bytes of
// text that took so long to read: twice as large, within maxScanChunk and
// maxScanBytes, and no larger than the rate of this chunk reads in the
// time left, so that the last chunk before the deadline ends in time
// rather than being cut off.
func nextChunk(n, bytes int, took, left time.Duration) int {
	next := min(2*n, maxScanChunk)
	if bytes > 0 {
		next = min(next, int(int64(maxScanBytes)*int64(n)/int64(bytes)))
	}
	if took > 0 {
		// In floats: a very fast chunk must not overflow an int.
		if fit := float64(n) * left.Seconds() / took.Seconds(); fit < float64(next) {
			next = int(fit)
		}
	}
	return max(next, minScanChunk)
}

// fetch runs the second step of a scan: the entity rows of the kept ids,
// shaped in the order Fetch returns them (the scan's order). Nothing kept,
// nothing to fetch.
func (s *scanState) fetch(ctx context.Context, tx neo4j.ManagedTransaction, st *planner.Statement, sh *shaper) error {
	sh.reset()
	if len(s.kept) == 0 {
		return nil
	}
	params := cloneParams(st.Fetch.Params)
	params[planner.FetchIDs] = s.kept
	res, err := tx.Run(ctx, st.Fetch.Cypher, params)
	if err != nil {
		return err
	}
	for res.Next(ctx) {
		sh.add(res.Record())
	}
	return res.Err()
}

// The stats of a scan's result: how many candidates were matched against
// the pattern, how many of them matched, and whether they were all of
// them (false when the page filled up first or the deadline came).
const (
	StatCandidatesScanned = "candidates_scanned"
	StatCandidatesMatched = "candidates_matched"
	StatScanComplete      = "scan_complete"
)

// scanResult adds a scan's stats to the result, and a note when the
// deadline stopped it: the answer is then the matches among the
// candidates read, which the agent should know before trusting that
// nothing else matches.
func (sh *shaper) scanResult() {
	r, rep := sh.res, sh.scan
	if r.Stats == nil {
		r.Stats = map[string]any{}
	}
	r.Stats[StatCandidatesScanned] = rep.scanned
	r.Stats[StatCandidatesMatched] = rep.matched
	r.Stats[StatScanComplete] = rep.complete
	if rep.deadline {
		r.Notes = append(r.Notes, fmt.Sprintf("the call's time ran out after the pattern was matched against %d candidates (in %s order; %d matched), so matches may exist among the candidates not read: narrow the pattern with a literal prefix or suffix, search another field or mode, or raise the timeout", rep.scanned, sh.scanOrder(), rep.matched))
	}
}

// scanOrder names the field whose order the scan read candidates in.
func (sh *shaper) scanOrder() string {
	if f := sh.st.Filter; f != nil && f.ValueOrder != "" {
		return f.ValueOrder
	}
	return sh.e.m.Entity(sh.st.Shape.Entity).UniqueField
}
