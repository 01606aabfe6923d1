package scope

import (
	"regexp"
	"strings"
)

// name matches a variable as Neo4j prints it: plain, or backquoted with
// inner backquotes doubled.
const name = "(?:[\\p{L}_][\\p{L}\\p{N}_]*|`(?:[^`]|``)+`)"

// matcher recognises the tenant predicate of one field and parameter in
// plan text.
type matcher struct {
	field, param string
	// pred matches a conjunct "v.field = $param" in each printed form
	// (either side first, the property read through Neo4j's property
	// cache or not); its one non-empty group is v.
	pred *regexp.Regexp
	// seek matches an index seek's predicate "field = $param".
	seek *regexp.Regexp
	// caseNests says CASE … END may be read as a level when splitting
	// predicates: no variable of the plan is named like its keywords.
	caseNests bool
}

func newMatcher(field, param string) *matcher {
	f := "(?:" + regexp.QuoteMeta(field) + "|" + regexp.QuoteMeta("`"+strings.ReplaceAll(field, "`", "``")+"`") + ")"
	p := `\$(?:` + regexp.QuoteMeta(param) + "|" + regexp.QuoteMeta("`"+strings.ReplaceAll(param, "`", "``")+"`") + ")"
	prop := `(?:(` + name + `)\.` + f + `|cache\w*\[(` + name + `)\.` + f + `\])`
	return &matcher{
		field: field, param: param,
		pred: regexp.MustCompile(`^(?:` + prop + `\s*=\s*` + p + `|` + p + `\s*=\s*` + prop + `)$`),
		seek: regexp.MustCompile(`^` + f + `\s*=\s*` + p + `$`),
	}
}

// scoped returns the variables a predicate keeps in the tenant: those of
// its top-level conjuncts that are exactly "v.field = $param".
func (m *matcher) scoped(pred string) []string {
	var out []string
	for _, c := range conjuncts(pred, m.caseNests) {
		if g := m.pred.FindStringSubmatch(c); g != nil {
			for _, v := range g[1:] {
				if v != "" {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// seekVar reads "[KIND INDEX |UNIQUE ]v:Label(props) WHERE pred[, cache[…]…]",
// an index seek's details, and returns v and whether pred has the
// conjunct "field = $param".
var seekDetails = regexp.MustCompile(`^` + indexPrefix + `(` + name + `):(.*?)\((.*?)\) WHERE (.*)$`)

func (m *matcher) seekScoped(details string) (string, bool) {
	g := seekDetails.FindStringSubmatch(details)
	if g == nil {
		return "", false
	}
	pred := g[4]
	if i := strings.Index(pred, ", cache"); i >= 0 {
		pred = pred[:i]
	}
	for _, c := range conjuncts(pred, false) {
		if m.seek.MatchString(c) {
			return g[1], true
		}
	}
	return g[1], false
}

// leafVar reads the node variable of a node scan's or seek's details:
// "n", "n:Label", "n:A|B", "n WHERE id(n) = …", "RANGE INDEX n:Label(p)
// WHERE …".
var leafVar = regexp.MustCompile(`^` + indexPrefix + `?(` + name + `)(?:$|[: ])`)

// indexPrefix is how an index operator's details start: "RANGE INDEX ",
// "TEXT INDEX ", "UNIQUE …".
const indexPrefix = `(?:(?:[A-Z]+ )*INDEX |UNIQUE (?:[A-Z]+ INDEX )?)`

// relPattern reads a one-hop pattern "(a)-[r:T]->(b)", "(a)<-[r]-(b)",
// "(a)-[r]-(b)" (an index's "T(prop)" inside the brackets included).
var relPattern = regexp.MustCompile(`\((` + name + `)\)<?-\[(` + name + `)(?:[^\]` + "`" + `]|` + "`(?:[^`]|``)+`" + `)*\]->?\((` + name + `)\)`)

// hop is a one-hop pattern of an operator's details.
type hop struct {
	from, rel, to string
	// where is the predicate after the pattern (OptionalExpand's), if any.
	where string
	text  string
}

func parseHop(details string) (hop, bool) {
	loc := relPattern.FindStringSubmatchIndex(details)
	if loc == nil {
		return hop{}, false
	}
	h := hop{from: details[loc[2]:loc[3]], rel: details[loc[4]:loc[5]], to: details[loc[6]:loc[7]], text: details[loc[0]:loc[1]]}
	if rest := strings.TrimSpace(details[loc[1]:]); strings.HasPrefix(rest, "WHERE ") {
		h.where = strings.TrimPrefix(rest, "WHERE ")
	}
	return h, true
}

// yield is one output column of a procedure call.
type yield struct{ name, typ string }

// procSignature reads "proc.name(args) :: (col :: TYPE, …)".
var procSignature = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)

func parseProc(details string) (string, []yield, bool) {
	g := procSignature.FindStringSubmatch(details)
	i := strings.LastIndex(details, ":: (")
	if g == nil || i < 0 || !strings.HasSuffix(details, ")") {
		return "", nil, false
	}
	var ys []yield
	for _, it := range items(details[i+4 : len(details)-1]) {
		if it == "" {
			continue
		}
		n, t, ok := strings.Cut(it, " :: ")
		if !ok {
			return "", nil, false
		}
		ys = append(ys, yield{strings.TrimSpace(n), strings.TrimSpace(t)})
	}
	return g[1], ys, true
}

// nestedPlan finds subquery expressions Neo4j evaluates inside another
// operator's expression (e.g. within CASE) instead of planning them as
// operators of their own: the nodes they read never appear in the plan.
var nestedPlan = regexp.MustCompile(`(?i)\b(?:EXISTS|COUNT|COLLECT)\s*\{|NestedPlan|\bshortestPath\s*\(|\ballShortestPaths\s*\(`)
