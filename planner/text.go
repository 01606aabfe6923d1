package planner

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ColValue is the column holding the matched text in regex and glob rows,
// which the engine's Go-side Filter reads.
const ColValue = "value"

// The parameters of a scan statement ([Statement.Next]): the most
// candidates one chunk returns, and the last id and value the chunk
// before read.
const (
	ScanChunk      = "chunk"
	ScanAfter      = "after"
	ScanAfterValue = "after_value"
)

// FirstScanChunk is the chunk the planner writes into a scan statement's
// parameters: the engine starts with it and grows the chunk as the scan
// goes (small first, so a pattern that matches early answers after one
// small chunk).
const FirstScanChunk = 1000

// FirstValueChunk is the first chunk of a scan in value order
// (Filter.ValueOrder), which reads every candidate whatever matches, so a
// small first chunk answers no sooner and costs round trips: on
// regex_number's 7,335 candidates, four chunks from FirstScanChunk took
// 16.5 ms against 5.5 ms by hand (bench/handwritten). Its values come from
// a range index, whose keys Neo4j keeps short.
const FirstValueChunk = 8 * FirstScanChunk

// FirstChunk is the size of a scan statement's first chunk, which the
// planner wrote into its parameters.
func (st *Statement) FirstChunk() int {
	n, _ := st.Params[ScanChunk].(int64)
	return int(n)
}

// scanSearch plans regex and glob: every candidate (a non-null value
// passing a literal prefilter), in unique-field order, for the Filter to
// match in Go. The candidates come in chunks: Statement reads the first
// ScanChunk, Next those after the id ScanAfter, so the engine reads as
// many as it needs (until the call's limit is full, every candidate is
// read, or the deadline comes) and each chunk is one bounded statement.
// A chunk is one row holding two lists, ids and values: on the standard
// library's 308,856 Scope names that streams in about a quarter of the
// time one row per candidate takes (engine/MEASUREMENTS.md).
func (p *Planner) scanSearch(a *TextPatternSearchArgs, mode string, state model.State) (*Statement, error) {
	const tool = TextPatternSearch
	var pre prefilter
	switch mode {
	case "regex":
		re, err := syntax.Parse(tools.Regex(a.Pattern, a.CaseSensitive), syntax.Perl)
		if err != nil {
			return nil, unplannable(tool, "regex", a.Pattern)
		}
		pre = regexPrefilter(re.Simplify()).withLength(regexLengths(re))
	case "glob":
		pre = globPrefilter(a.Pattern, a.CaseSensitive).withLength(globLengths(a.Pattern))
	}
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	chunk := p.scanChunk
	if p.seeksPrefix(e, a.Field, pre) {
		chunk = p.valueChunk
	}
	st, r, err := chunk(tool, e, a, pre, false, state)
	if err != nil {
		return nil, err
	}
	if st.Next, _, err = chunk(tool, e, a, pre, true, state); err != nil {
		return nil, err
	}
	st.Filter = &Filter{Mode: mode, Pattern: a.Pattern, CaseSensitive: a.CaseSensitive, Arg: "/pattern"}
	if p.seeksPrefix(e, a.Field, pre) {
		st.Filter.ValueOrder = a.Field
	}
	if st.Fetch, err = p.fetchEntities(tool, e, r, st.Filter.ValueOrder != "", st.Shape.Limit, state); err != nil {
		return nil, err
	}
	st.Uses = mergeUses(st.Uses, st.Fetch.Uses)
	return st, nil
}

// scanChunk writes one chunk of a scan: the first (ids from the start) or
// a next one (ids after $after). Both have the same parameters but
// ScanAfter. The unique field's predicate lets Neo4j read its range index
// (the uniqueness constraint's) in order and stop after the chunk, unless
// a prefilter it can seek (a case-sensitive prefix on an indexed field)
// finds fewer candidates first.
func (p *Planner) scanChunk(tool string, e *model.Entity, a *TextPatternSearchArgs, pre prefilter, next bool, state model.State) (*Statement, fieldRef, error) {
	b, r, err := p.fieldBuilder(tool, e, a.Field, state)
	if err != nil {
		return nil, fieldRef{}, err
	}
	b.use(r, model.UseFilter)
	id := b.prop("n", e.UniqueField)
	start := id + " IS NOT NULL"
	if next {
		start = id + " > " + b.named(ScanAfter, nil)
	}
	x := b.expr(r)
	var ps preds
	// Not null, so that collect() below keeps every candidate's value
	// beside its id.
	for _, pr := range append([]string{x + " IS NOT NULL"}, pre.render(b, x)...) {
		ps.add(b, r, pr)
	}
	b.match(append([]string{start}, ps.stored...))
	if err := b.ensure(ps.refs...); err != nil {
		return nil, fieldRef{}, err
	}
	b.filterScope(ps.computed)
	b.line("WITH %s AS %s, %s AS %s\nORDER BY %s\nLIMIT %s", id, ColID, x, ColValue, ColID, b.named(ScanChunk, int64(FirstScanChunk)))
	b.line("RETURN collect(%s) AS %s, collect(%s) AS %s", ColID, ColID, ColValue, ColValue)
	st, err := b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)})
	return st, r, err
}

// seeksPrefix reports whether a scan's candidates are those of a
// case-sensitive literal prefix on a stored field a range index orders:
// Neo4j then seeks them from the index, value included, and a chunk in
// the value's order reads nothing else per candidate (valueChunk).
func (p *Planner) seeksPrefix(e *model.Entity, field string, pre prefilter) bool {
	f := e.Field(field)
	return pre.prefix != "" && !pre.lower && f != nil && (f.Indexed || f.Name == e.UniqueField)
}

// valueChunk writes one chunk of a scan whose prefix a range index seeks
// (seeksPrefix): the candidates in the order of their value, read from
// the index, each with its elementId as the handle Fetch finds it by
// (neither costs a db hit), the values tied on the chunk's edge ordered
// by handle. The next chunk seeks from the last value read ($after_value)
// and skips what the chunk before read of it (a handle up to $after). In
// unique-field order instead, every chunk read and sorted the unique
// field of every candidate: on the airline graph's 7,335 flights whose
// number starts with UA1, 14,671 db hits for the first chunk against
// 7,336 (bench/handwritten, regex_number).
func (p *Planner) valueChunk(tool string, e *model.Entity, a *TextPatternSearchArgs, pre prefilter, next bool, state model.State) (*Statement, fieldRef, error) {
	b, r, err := p.fieldBuilder(tool, e, a.Field, state)
	if err != nil {
		return nil, fieldRef{}, err
	}
	b.use(r, model.UseFilter)
	x := b.expr(r)
	var preds []string
	if next {
		preds = append(preds, x+" >= "+b.named(ScanAfterValue, nil))
		// One range from the last value to the prefix's end, which the
		// index seeks from there: with the prefix a STARTS WITH, Neo4j
		// seeks that instead and every chunk reads the candidates of every
		// chunk before again.
		if end, ok := prefixEnd(pre.prefix); ok {
			preds = append(preds, x+" < "+b.param(end))
			if strings.Contains(pre.prefix, pre.contains) {
				pre.contains = ""
			}
			pre.prefix = ""
		}
	}
	b.match(append(preds, pre.render(b, x)...))
	b.line("WITH %s AS %s, elementId(n) AS %s", x, ColValue, ColID)
	if next {
		b.line("WHERE %s > %s OR %s > %s", ColValue, b.named(ScanAfterValue, nil), ColID, b.named(ScanAfter, nil))
	}
	b.line("ORDER BY %s, %s\nLIMIT %s", ColValue, ColID, b.named(ScanChunk, int64(FirstValueChunk)))
	b.line("RETURN collect(%s) AS %s, collect(%s) AS %s", ColID, ColID, ColValue, ColValue)
	st, err := b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)})
	return st, r, err
}

// prefixEnd is the least string above every string that starts with
// prefix: its last character, incremented. Only below the surrogates
// (U+D800), where Neo4j's string order, by code point or by UTF-16 unit,
// is the same; false above, and then a next chunk seeks the prefix.
func prefixEnd(prefix string) (string, bool) {
	r, size := utf8.DecodeLastRuneInString(prefix)
	if prefix == "" || r >= 0xD7FF {
		return "", false
	}
	return prefix[:len(prefix)-size] + string(r+1), true
}

// fetchEntities plans the second step of a regex or glob scan: the entity
// rows of the ids the engine kept (Params[FetchIDs]), in unique-field
// order like the scan. The scan returns only each candidate's id and
// matched text, so properties cross the network for kept entities only.
// After a scan in value order (byHandle), the engine kept the elementIds
// of every match, and the fetch takes the first limit of them in
// unique-field order.
func (p *Planner) fetchEntities(tool string, e *model.Entity, r fieldRef, byHandle bool, limit int, state model.State) (*Statement, error) {
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	b.line("UNWIND %s AS fetch_id", b.named(FetchIDs, []any{}))
	if byHandle {
		b.match([]string{"elementId(n) = fetch_id"})
		b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList([]order{b.idOrder()}), b.pageSize(limit))
	} else {
		b.match([]string{b.prop("n", e.UniqueField) + " = fetch_id"})
	}
	var computed []fieldRef
	if r.c != nil {
		computed = append(computed, r)
	}
	if err := b.returnEntities(b.defaultStored(), computed, nil, []order{b.idOrder()}); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name})
}

// mergeUses appends the uses of more not already in uses.
func mergeUses(uses, more []model.Use) []model.Use {
	for _, u := range more {
		if !slices.Contains(uses, u) {
			uses = append(uses, u)
		}
	}
	return uses
}

// prefilter is a cheap necessary condition on a candidate's text: a
// literal prefix, suffix and/or substring every match has, and the
// bounds of its length. Literals and bounds are parameters.
type prefilter struct {
	prefix, suffix, contains string
	// lower compares lower-cased text with lower-cased literals.
	lower bool
	// length bounds the text itself, not its lower case: Cypher's toLower
	// may lengthen it (İ becomes i and a combining dot).
	length lengths
}

func (pf prefilter) render(b *builder, x string) []string {
	raw := x
	if pf.lower {
		x = "toLower(" + x + ")"
	}
	var out []string
	if pf.prefix != "" {
		out = append(out, x+" STARTS WITH "+b.param(pf.prefix))
	}
	if pf.suffix != "" {
		out = append(out, x+" ENDS WITH "+b.param(pf.suffix))
	}
	if pf.contains != "" && !strings.Contains(pf.prefix, pf.contains) && !strings.Contains(pf.suffix, pf.contains) {
		out = append(out, x+" CONTAINS "+b.param(pf.contains))
	}
	return append(out, pf.length.render(b, raw)...)
}

// withLength is the prefilter with the length bounds l, less a least
// length its literals already imply, which would narrow nothing.
func (pf prefilter) withLength(l lengths) prefilter {
	if !l.bounded && l.least <= max(utf8.RuneCountInString(pf.prefix), utf8.RuneCountInString(pf.suffix), utf8.RuneCountInString(pf.contains)) {
		l.least = 0
	}
	pf.length = l
	return pf
}

// regexPrefilter finds literals every match of a whole-value regex holds:
// the top-level concatenation's leading literal is a prefix, its trailing
// literal a suffix, its longest literal a substring. When matching ignores
// case, the text is lower-cased in Cypher and only the parts of literals
// where Cypher's toLower and RE2's case folding agree are kept (ASCII
// without k and s, which also fold to the Kelvin sign and the long s).
func regexPrefilter(re *syntax.Regexp) prefilter {
	var pf prefilter
	if re.Op != syntax.OpConcat {
		if re.Op == syntax.OpLiteral {
			re = &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{re}}
		} else {
			return pf
		}
	}
	subs := re.Sub
	for len(subs) > 0 && (subs[0].Op == syntax.OpBeginText || subs[0].Op == syntax.OpBeginLine) {
		subs = subs[1:]
	}
	for len(subs) > 0 && (subs[len(subs)-1].Op == syntax.OpEndText || subs[len(subs)-1].Op == syntax.OpEndLine) {
		subs = subs[:len(subs)-1]
	}
	// A capture around the whole pattern: look inside it.
	if len(subs) == 1 && subs[0].Op == syntax.OpCapture {
		return regexPrefilter(subs[0].Sub[0])
	}
	for _, r := range subs {
		if r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase != 0 {
			pf.lower = true
		}
	}
	for i, r := range subs {
		if r.Op != syntax.OpLiteral {
			continue
		}
		s := string(r.Rune)
		if !pf.lower {
			if i == 0 {
				pf.prefix = s
			}
			if i == len(subs)-1 {
				pf.suffix = s
			}
			if len(s) > len(pf.contains) {
				pf.contains = s
			}
			continue
		}
		s = strings.ToLower(s)
		if i == 0 {
			pf.prefix = safePrefix(s)
		}
		if i == len(subs)-1 {
			pf.suffix = safeSuffix(s)
		}
		if run := longestSafeRun(s); len(run) > len(pf.contains) {
			pf.contains = run
		}
	}
	return pf
}

// foldUnsafe reports whether Cypher's toLower and RE2's case folding may
// disagree on r.
func foldUnsafe(r rune) bool { return r >= 0x80 || strings.ContainsRune("iIkKsS", r) }

func safePrefix(s string) string {
	if i := strings.IndexFunc(s, foldUnsafe); i >= 0 {
		return s[:i]
	}
	return s
}

func safeSuffix(s string) string {
	if i := strings.LastIndexFunc(s, foldUnsafe); i >= 0 {
		_, size := utf8.DecodeRuneInString(s[i:])
		return s[i+size:]
	}
	return s
}

func longestSafeRun(s string) string {
	best := ""
	for _, run := range strings.FieldsFunc(s, foldUnsafe) {
		if len(run) > len(best) {
			best = run
		}
	}
	return best
}

// globMeta are the characters that end a glob's literal prefix or suffix.
const globMeta = `*?[]{}\,`

// globPrefilter takes the literal text before the first and after the last
// glob metacharacter as prefix and suffix.
func globPrefilter(pattern string, caseSensitive bool) prefilter {
	var pf prefilter
	if i := strings.IndexAny(pattern, globMeta); i < 0 {
		pf.prefix = pattern
		pf.suffix = ""
	} else {
		pf.prefix = pattern[:i]
		j := strings.LastIndexAny(pattern, globMeta)
		pf.suffix = pattern[j+1:]
	}
	if !caseSensitive {
		pf.lower = true
		pf.prefix, pf.suffix = safePrefix(strings.ToLower(pf.prefix)), safeSuffix(strings.ToLower(pf.suffix))
	}
	return pf
}

// Matcher compiles the filter into the Go predicate the engine applies to
// each candidate (tools.Matcher).
func (f *Filter) Matcher() (func(string) bool, error) {
	return tools.Matcher(f.Mode, f.Pattern, f.CaseSensitive)
}
