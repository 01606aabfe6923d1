package scope

import (
	"slices"
	"testing"
)

func TestConjunctsSplitsOnlyATopLevelConjunction(t *testing.T) {
	for pred, want := range map[string][]string{
		"n.user_id = $tenant":                         {"n.user_id = $tenant"},
		"(n.user_id = $tenant AND n.name = $x)":       {"n.user_id = $tenant", "n.name = $x"},
		"((a AND b)) AND c":                           {"a", "b", "c"},
		"(a) AND (b)":                                 {"a", "b"},
		"NOT n.user_id = $tenant AND m.user_id = $t":  {"NOT n.user_id = $tenant", "m.user_id = $t"},
		"a AND b OR c":                                {"a AND b OR c"},
		"a XOR b AND c":                               {"a XOR b AND c"},
		"(a OR b) AND c":                              {"a OR b", "c"},
		"n.name = 'x AND n.user_id = $tenant'":        {"n.name = 'x AND n.user_id = $tenant'"},
		`n.name = "it\" AND y" AND z`:                 {`n.name = "it\" AND y"`, "z"},
		"`a AND b`.user_id = $tenant AND c":           {"`a AND b`.user_id = $tenant", "c"},
		"CASE WHEN a THEN b ELSE c AND d END":         {"CASE WHEN a THEN b ELSE c AND d END"},
		"x AND (CASE WHEN a THEN b ELSE c AND d END)": {"x", "CASE WHEN a THEN b ELSE c AND d END"},
		"case.user_id = $tenant AND end.name = $x":    {"case.user_id = $tenant", "end.name = $x"},
		"case IS NOT NULL AND end IS NULL AND c":      {"case IS NOT NULL AND end IS NULL AND c"},
		"n.and = $and AND n:AND":                      {"n.and = $and", "n:AND"},
		"[x IN l WHERE x.a OR x.b] AND c":             {"[x IN l WHERE x.a OR x.b]", "c"},
		"EXISTS { MATCH (m) WHERE a OR b } AND c":     {"EXISTS { MATCH (m) WHERE a OR b }", "c"},
		"a AND (b":  {"a AND (b"},
		"a AND b)":  {"a AND b)"},
		"a AND 'b":  {"a AND 'b"},
		"(a AND b]": {"(a AND b]"},
		"n.user_id = $tenant and m.user_id = $tenant": {"n.user_id = $tenant", "m.user_id = $tenant"},
		"n.user_id = $tenant or m.user_id = $tenant":  {"n.user_id = $tenant or m.user_id = $tenant"},
	} {
		if got := conjuncts(pred, false); !slices.Equal(got, want) {
			t.Errorf("conjuncts(%q) = %q, want %q", pred, got, want)
		}
	}
}

func TestCaseEndIsALevelOnlyWhenNoVariableIsNamedLikeItsKeywords(t *testing.T) {
	for pred, want := range map[string][]string{
		"n.user_id = $tenant AND CASE\n  WHEN n.a THEN 1 / 0\n  ELSE 1\nEND = $autoint_0": {"n.user_id = $tenant", "CASE\n  WHEN n.a THEN 1 / 0\n  ELSE 1\nEND = $autoint_0"},
		"CASE WHEN a THEN b ELSE c AND n.user_id = $tenant END":                           {"CASE WHEN a THEN b ELSE c AND n.user_id = $tenant END"},
		"CASE WHEN a OR b THEN c END AND d":                                               {"CASE WHEN a OR b THEN c END", "d"},
		"CASE WHEN a THEN CASE WHEN b THEN c END END AND d AND e.case = 1":                {"CASE WHEN a THEN CASE WHEN b THEN c END END", "d", "e.case = 1"},
		"a AND END":                {"a AND END"},
		"a AND CASE WHEN b THEN c": {"a AND CASE WHEN b THEN c"},
		"x AND WHEN":               {"x AND WHEN"},
		"case.user_id = $tenant AND end.name = $x": {"case.user_id = $tenant", "end.name = $x"},
		// A property of a CASE's value, as Neo4j prints a computed field's
		// datetime read (days_since of a related entity).
		"a.user_id = $tenant AND (datetime().epochMillis - CASE\n  WHEN a.t IS NOT NULL THEN a.t\nEND.epochMillis) / $x < $p0 AND a:Person": {"a.user_id = $tenant", "(datetime().epochMillis - CASE\n  WHEN a.t IS NOT NULL THEN a.t\nEND.epochMillis) / $x < $p0", "a:Person"},
		"CASE WHEN a THEN b END.x OR n.user_id = $tenant": {"CASE WHEN a THEN b END.x OR n.user_id = $tenant"},
		"x AND CASE WHEN a THEN b END.c.end.d AND y":      {"x", "CASE WHEN a THEN b END.c.end.d", "y"},
	} {
		if got := conjuncts(pred, true); !slices.Equal(got, want) {
			t.Errorf("conjuncts(%q, caseNests) = %q, want %q", pred, got, want)
		}
	}
}

func TestTheTenantPredicateMatchesOnlyItsExactForms(t *testing.T) {
	m := newMatcher("user_id", "tenant")
	for pred, want := range map[string][]string{
		"n.user_id = $tenant":                             {"n"},
		"$tenant = n.user_id":                             {"n"},
		"cache[n.user_id] = $tenant":                      {"n"},
		"$tenant = cache[m.user_id]":                      {"m"},
		"(m:Concept AND m.user_id = $tenant AND m.x = 1)": {"m"},
		"`a b`.user_id = $tenant":                         {"`a b`"},
		"n.`user_id` = $`tenant`":                         {"n"},
		"NOT s = r AND o.user_id = $tenant":               {"o"},
		"a.user_id = $tenant AND b.user_id = $tenant":     {"a", "b"},
		"n.user_id = $tenant0":                            nil,
		"n.user_id = $tenant OR true":                     nil,
		"NOT n.user_id = $tenant":                         nil,
		"(n.user_id = $tenant) = true":                    nil,
		"n.user_id = $tenant = true":                      nil,
		"n.user_idx = $tenant":                            nil,
		"n.user_id <> $tenant":                            nil,
		"n.user_id = $tenant IS NULL":                     nil,
		"n.user_id STARTS WITH $tenant":                   nil,
		"n.user_id IN [$tenant]":                          nil,
		"cache[n.user_id = $tenant":                       nil,
		"f(n).user_id = $tenant":                          nil,
		"n.m.user_id = $tenant":                           nil,
		"n.name = 'x AND n.user_id = $tenant'":            nil,
	} {
		if got := m.scoped(pred); !slices.Equal(got, want) {
			t.Errorf("scoped(%q) = %q, want %q", pred, got, want)
		}
	}
}

func TestAnIndexSeekScopesOnlyOnEqualityWithTheTenant(t *testing.T) {
	m := newMatcher("user_id", "tenant")
	for details, want := range map[string]bool{
		"RANGE INDEX n:Person(user_id) WHERE user_id = $tenant, cache[n.user_id]":                   true,
		"RANGE INDEX n:Person(user_id) WHERE user_id = $tenant":                                     true,
		"RANGE INDEX n:Person(user_id, name) WHERE user_id = $tenant AND name = $autostring_0":      true,
		"UNIQUE n:Person(user_id) WHERE user_id = $tenant":                                          true,
		"RANGE INDEX n:Person(user_id) WHERE user_id IN [$tenant, $autostring_0], cache[n.user_id]": false,
		"RANGE INDEX n:Person(user_id) WHERE user_id STARTS WITH $tenant, cache[n.user_id]":         false,
		"RANGE INDEX n:Person(name) WHERE name = $tenant":                                           false,
		"RANGE INDEX n:Person(user_id) WHERE user_id = $tenant OR user_id = $x":                     false,
		"RANGE INDEX n:Person(user_id) WHERE user_id IS NOT NULL":                                   false,
	} {
		if v, got := m.seekScoped(details); got != want || v != "n" {
			t.Errorf("seekScoped(%q) = %q, %v, want n, %v", details, v, got, want)
		}
	}
}

func TestAliasesAreTheNamesAProjectionBinds(t *testing.T) {
	for details, want := range map[string][]string{
		"n AS m, n AS n2":                 {"m", "n2"},
		"m AS n, n AS m":                  {"n", "m"},
		"n AS n, count(*) AS c":           {"c"},
		"n{x: anon_0, .*} AS r":           {"r"},
		"[x IN l | x AS y] AS z":          {"z"},
		"n":                               nil,
		"CASE WHEN a THEN 1 END AS `a b`": {"`a b`"},
		"ns AS m":                         {"m"},
	} {
		if got := aliases(details); !slices.Equal(got, want) {
			t.Errorf("aliases(%q) = %q, want %q", details, got, want)
		}
	}
}

func TestTheLeafVariableIsReadFromTheStartOfItsDetails(t *testing.T) {
	for details, want := range map[string]string{
		"n":                          "n",
		"n:Concept":                  "n",
		"`a b`:Person|Concept":       "`a b`",
		"X WHERE id(X) = $autoint_0": "X",
		"WHERE WHERE id(WHERE) = $x": "WHERE",
		"RANGE INDEX n:Person(user_id) WHERE user_id = $tenant, cache[n.user_id]": "n",
		"UNIQUE n:Person(user_id) WHERE user_id = $tenant":                        "n",
		"TEXT INDEX N:Person(name) WHERE name CONTAINS $x":                        "N",
	} {
		g := leafVar.FindStringSubmatch(details)
		if g == nil || g[1] != want {
			t.Errorf("leafVar(%q) = %q, want %q", details, g, want)
		}
	}
}
