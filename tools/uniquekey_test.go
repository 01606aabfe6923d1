package tools

import (
	"slices"
	"testing"
)

// TestUniqueKeyNeverReturnsATakenKey is the regression test of two
// aggregate tests given one key: `SUM R x_2` (key sum_R_x_2) then `SUM R
// x` (sum_R_x) kept their own keys' names apart, where counting every
// key_<digits> as "the same key" named the second sum_R_x_2 too.
func TestUniqueKeyNeverReturnsATakenKey(t *testing.T) {
	for _, c := range []struct {
		key   string
		taken []string
		want  string
	}{
		{"sum_R_x", nil, "sum_R_x"},
		{"sum_R_x", []string{"sum_R_x_2"}, "sum_R_x"},
		{"sum_R_x", []string{"sum_R_x"}, "sum_R_x_2"},
		{"sum_R_x", []string{"sum_R_x", "sum_R_x_2"}, "sum_R_x_3"},
	} {
		if got := UniqueKey(c.key, func(k string) bool { return slices.Contains(c.taken, k) }); got != c.want {
			t.Errorf("UniqueKey(%q) with %q taken = %q, want %q", c.key, c.taken, got, c.want)
		}
	}
}
