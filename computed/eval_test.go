package computed

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestEvalFollowsTheChosenMeaning(t *testing.T) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	props := map[string]any{
		"i1": 7, "i2": int64(2), "x1": 2.5, "s1": "straße", "s2": "\u00a0 a\u2003",
		"b1": true, "d1": time.Date(2024, 5, 30, 14, 0, 0, 0, time.FixedZone("", 2*3600)),
		"d2": "2024-05-31T12:00:00Z", "d3": int64(1717156800000), "d4": int64(1717156800),
		"zero": 0,
	}
	for _, tc := range []struct {
		expr, typ string
		want      any
	}{
		{"i1 / i2", "number", 3.5},
		{"i1 / 0", "number", nil},
		{"x1 / 0.0", "number", nil},
		{"i1 % 0", "integer", nil},
		{"-7 % 2", "integer", int64(-1)},
		{"i1 ** 2", "number", 49.0},
		{"i1 + missing_is_null", "integer", nil},
		{"round(2.5)", "number", 3.0},
		{"round(-2.5)", "number", -3.0},
		{"len('é😀')", "integer", int64(2)},
		{"upper(s1)", "string", "STRASSE"},
		{"lower('İ')", "string", "i\u0307"},
		{"trim(s2)", "string", "\u00a0 a"},
		{"b1 and i3_null > 1", "boolean", nil},
		{"false and i3_null > 1", "boolean", false},
		{"i3_null > 1 or true", "boolean", true},
		{"i3_null > 1 ? 1 : 2", "integer", nil},
		{"i3_null ?? 5", "integer", int64(5)},
		{"i3_null == nil", "boolean", true},
		{"i3_null == 1", "boolean", nil},
		{"min(i1, x1)", "number", 2.5},
		{"max(i2, 2.0)", "number", int64(2)},
		{"s1 matches '^str'", "boolean", true},
		{"days_since(d1)", "integer", int64(2)},
		{"hours_since(d2)", "integer", int64(24)},
		{"days_between(d4, d1)", "integer", int64(-1)},
		{"d3 == d4", "boolean", true},
		{"i1 in [7, 8]", "boolean", true},
		{"abs(-9223372036854775807 - 1)", "integer", int64(math.MinInt64)},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			ce := mustCompileWithNulls(t, [3]string{"f", tc.typ, tc.expr})
			got, err := ce.Field("f").EvalAt(props, now)
			if err != nil {
				t.Fatalf("EvalAt: %v", err)
			}
			if got != tc.want {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestEvalIntegerOverflowIsAnError(t *testing.T) {
	for _, src := range []string{"9223372036854775807 + i1", "-9223372036854775807 - 1 - i1", "4611686018427387904 * 2 * i1", "-(-9223372036854775807 - i1)"} {
		ce := mustCompile(t, [3]string{"f", "integer", src})
		_, err := ce.Field("f").Eval(map[string]any{"i1": 1})
		if !errors.Is(err, ErrOverflow) {
			t.Errorf("%s: err = %v, want ErrOverflow", src, err)
		}
	}
}

// mustCompileWithNulls adds never-set fields i3_null and missing_is_null.
func mustCompileWithNulls(t *testing.T, c [3]string) *Entity {
	t.Helper()
	e := testEntity(c)
	e.Fields = append(e.Fields, testEntity().Fields[0], testEntity().Fields[0])
	e.Fields[len(e.Fields)-2].Name = "i3_null"
	e.Fields[len(e.Fields)-1].Name = "missing_is_null"
	ce, err := Compile(e)
	if err != nil {
		t.Fatal(err)
	}
	return ce
}
