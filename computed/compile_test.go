package computed

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

func TestFragmentInlinesDependencies(t *testing.T) {
	ce := mustCompile(t,
		[3]string{"line_count", "integer", "i2 - i1 + 1"},
		[3]string{"is_large", "boolean", "line_count > 100"},
	)
	got, err := ce.Field("is_large").Fragment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "((((n.`i2` - n.`i1`) + 1)) > 100)"
	if got.Cypher != want {
		t.Errorf("fragment = %s, want %s", got.Cypher, want)
	}
}

func TestFragmentReadsMaterializedDependency(t *testing.T) {
	e := testEntity(
		[3]string{"line_count", "integer", "i2 - i1 + 1"},
		[3]string{"is_large", "boolean", "line_count > 100"},
	)
	e.Computed[0].CacheProperty = "lc_cache"
	ce, err := Compile(e)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ce.Field("is_large").Fragment(Options{Node: "s", Materialized: map[string]bool{"line_count": true}})
	if want := "((s.`lc_cache`) > 100)"; got.Cypher != want {
		t.Errorf("fragment = %s, want %s", got.Cypher, want)
	}
}

// TestCompileRefusesNamesOutsideTheIdentifierRules: a model built in Go may
// hold names a validated config cannot; Compile names them in an error
// (through ident.Check) instead of writing them into Cypher.
func TestCompileRefusesNamesOutsideTheIdentifierRules(t *testing.T) {
	for _, bad := range []string{"lc`cache", `lc\u0060`, "", "1st", "naïve"} {
		e := testEntity([3]string{"line_count", "integer", "i2 - i1 + 1"})
		e.Computed[0].CacheProperty = bad
		if bad == "" {
			e.Computed[0].Name = "has space"
		}
		_, err := Compile(e)
		if err == nil || !strings.Contains(err.Error(), "is not a valid name") {
			t.Errorf("%q: Compile error = %v, want one naming the invalid name", bad, err)
		}
	}
}

func TestOrderPutsDependenciesFirst(t *testing.T) {
	ce := mustCompile(t,
		[3]string{"c", "boolean", "b > 1"},
		[3]string{"b", "integer", "a + 1"},
		[3]string{"a", "integer", "i1"},
	)
	var names []string
	for _, f := range ce.Order {
		names = append(names, f.Config.Name)
	}
	if got := strings.Join(names, ","); got != "a,b,c" {
		t.Errorf("order = %s, want a,b,c", got)
	}
}

func compileErr(t *testing.T, computed ...[3]string) *Error {
	t.Helper()
	_, err := Compile(testEntity(computed...))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		t.Fatalf("Compile succeeded (err %v), want an error", err)
	}
	return errs[0]
}

func TestUnknownNameSuggestsClosestField(t *testing.T) {
	e := compileErr(t,
		[3]string{"line_count", "integer", "i2 - i1 + 1"},
		[3]string{"is_large", "boolean", "line_cnt > 100"},
	)
	if e.Field != "is_large" || e.Offset != 0 || !strings.Contains(e.Msg, `unknown name "line_cnt" (did you mean line_count?)`) {
		t.Errorf("error = %+v", e)
	}
	if !strings.HasSuffix(e.Error(), "\n | line_cnt > 100\n | ^") {
		t.Errorf("no caret snippet: %q", e.Error())
	}
}

// TestTruncateUnitErrorPointsAtTheUnit: a unit outside the list is
// reported at the unit's own column, with a suggestion and the list.
func TestTruncateUnitErrorPointsAtTheUnit(t *testing.T) {
	e := compileErr(t, [3]string{"month_start", "datetime", `truncate(d1, "mnth")`})
	if e.Offset != 13 || !strings.Contains(e.Msg, `"mnth" (did you mean month?); units: hour, day, week, month, year`) {
		t.Errorf("error = %+v", e)
	}
	if !strings.HasSuffix(e.Error(), "(expression 1:14)\n | truncate(d1, \"mnth\")\n | .............^") {
		t.Errorf("no caret under the unit: %q", e.Error())
	}
}

func TestCycleErrorNamesTheCycle(t *testing.T) {
	e := compileErr(t,
		[3]string{"line_count", "integer", "is_large ? 1 : 0"},
		[3]string{"is_large", "boolean", "line_count > 100"},
	)
	if e.Msg != "dependency cycle: line_count → is_large → line_count" || e.Offset != 0 {
		t.Errorf("error = %+v", e)
	}
	e = compileErr(t, [3]string{"a", "integer", "1 + a"})
	if e.Msg != "dependency cycle: a → a" || e.Offset != 4 {
		t.Errorf("self cycle error = %+v", e)
	}
}

func TestRejectsOutsideTheSupportedSet(t *testing.T) {
	for _, tc := range []struct{ expr, typ, want string }{
		{"s1.x", "string", "member access"},
		{"[1, 2]", "integer", "only supported on the right of `in`"},
		{"{a: 1}", "integer", "a map literal"},
		{"all([1], # > 0)", "boolean", "function all is not supported"},
		{"split(s1, ',')", "string", "function split is not supported"},
		{"lowr(s1)", "string", "did you mean lower?"},
		{"let x = 1; x", "integer", "let is not supported"},
		{"1..3", "integer", "operator .. is not supported"},
		{"i1 + nil", "integer", "nil is only supported"},
		{"s1 + i1", "string", "invalid operation: string + integer"},
		{"i1 + 1", "boolean", "expression is integer but the field is declared boolean"},
		{"i1 / 2", "integer", "expression is float but the field is declared integer"},
		{"b1 < b2", "boolean", "invalid operation: boolean < boolean"},
		{"loc", "string", `field "loc" is a point field`},
		{"s1 matches s2", "boolean", "constant pattern"},
		{"s1 matches 'abc'", "boolean", "must start with ^"},
		{"s1 matches '^a*a'", "boolean", "must not overlap"},
		{"s1 matches '^(ab)+'", "boolean", "groups and alternation"},
		{"s1 matches '^a|b'", "boolean", "groups and alternation"},
		{"s1 matches '^(?i)abc'", "boolean", "case-insensitive"},
		{`s1 matches '^a\\b'`, "boolean", `\b`},
		{"i1 in [1, 'a']", "boolean", "list element is string but the value is integer"},
		{"i1 +* 2", "integer", "syntax error"},
		{"min(i1, 2, 3)", "integer", "min takes 2 argument(s), got 3"},
		{"days_since(i1)", "integer", "days_since needs a datetime, got integer"},
		{"hour(x1)", "integer", "hour needs a datetime, got number"},
		{"weekday(d1)", "string", "expression is integer but the field is declared string"},
		{"truncate(d1, 'minute')", "datetime", `truncate cannot cut to "minute"`},
		{"truncate('month', d1)", "datetime", `truncate takes the datetime first, then the unit: truncate(t, "month")`},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			e := compileErr(t, [3]string{"f", tc.typ, tc.expr})
			if !strings.Contains(e.Msg, tc.want) {
				t.Errorf("error = %q, want it to contain %q", e.Msg, tc.want)
			}
		})
	}
}

// TestVariableStaysWithinTheIdentifierRules: variables derived from names
// up to the 100-character limit pass ident.Check, and two long names that
// share their head still get different variables.
func TestVariableStaysWithinTheIdentifierRules(t *testing.T) {
	a, b := strings.Repeat("a", 99)+"b", strings.Repeat("a", 99)+"c"
	va, vb := Variable("__rf_n_", a), Variable("__rf_n_", b)
	for _, v := range []string{va, vb, Variable("cf_", "short")} {
		if err := ident.Check(v); err != nil {
			t.Error(err)
		}
	}
	if va == vb {
		t.Errorf("%q and %q share the variable %s", a, b, va)
	}
	if got := Variable("cf_", "short"); got != "cf_short" {
		t.Errorf("short name: %s, want cf_short", got)
	}
}
