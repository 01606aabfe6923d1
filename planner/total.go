package planner

import (
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// ParamTotalCap is the parameter of a total statement holding tools.MaxTotal+1,
// the matches it reads at most: one beyond tools.MaxTotal tells "exactly
// tools.MaxTotal" from "more".
const ParamTotalCap = "total_cap"

// counted is the total statement (Statement.Total) of a list whose
// matches are the rows of variable v after match, the clauses that find
// them: at most tools.MaxTotal+1 of them counted into ColTotal. It shares b's
// parameters, which match refers to; the others it leaves unread.
func (b *builder) counted(v string, match []string) *Statement {
	lines := append(match, "WITH "+v+" LIMIT "+b.named(ParamTotalCap, int64(tools.MaxTotal+1)), "RETURN count("+v+") AS "+ColTotal)
	return &Statement{Cypher: strings.Join(lines, "\n"), Params: b.params}
}

// totalOfEntities is the total statement of an entity list whose
// conditions made ps, before any sort added its fields: the match, the
// computed fields the predicates need, and their filter, as the list
// writes them. It writes them apart and leaves b as it found it.
func (b *builder) totalOfEntities(ps preds) (*Statement, error) {
	lines, scope, have, haveAlias := b.lines, b.scope, b.have, b.haveAlias
	defer func() { b.lines, b.scope, b.have, b.haveAlias = lines, scope, have, haveAlias }()
	b.lines = nil
	b.reset()
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	return b.counted("n", b.lines), nil
}
