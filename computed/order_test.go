package computed

import (
	"errors"
	"testing"
)

// TestCompileReportsEveryCycleBesideOtherErrors: a type error in one field
// does not hide a cycle among others, and a second cycle is not hidden by
// the first.
func TestCompileReportsEveryCycleBesideOtherErrors(t *testing.T) {
	_, err := Compile(testEntity(
		[3]string{"a", "integer", "b + 1"},
		[3]string{"b", "integer", "a * 2"},
		[3]string{"c", "integer", "s1 + 1"},
		[3]string{"d", "integer", "d + 1"},
	))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Compile = %v, want Errors", err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Field+": "+e.Msg)
	}
	want := []string{
		"c: invalid operation: string + integer (mismatched types)",
		"a: dependency cycle: a → b → a",
		"d: dependency cycle: d → d",
	}
	if len(got) != len(want) {
		t.Fatalf("errors = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("error %d = %q, want %q", i, got[i], want[i])
		}
	}
}
