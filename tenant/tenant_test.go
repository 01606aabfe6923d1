package tenant

import (
	"context"
	"errors"
	"testing"
)

func TestRequiredIsTheBoundTenantOrErrUnbound(t *testing.T) {
	bg := context.Background()
	for _, c := range []struct {
		ctx      context.Context
		declared bool
		want     string
		err      error
	}{
		{With(bg, "alice"), true, "alice", nil},
		{bg, true, "", ErrUnbound},
		{With(bg, ""), true, "", ErrUnbound},
		// Without a declared tenant nothing is scoped, bound or not.
		{bg, false, "", nil},
		{With(bg, "alice"), false, "", nil},
	} {
		got, err := Required(c.ctx, c.declared)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("Required(declared %v) = %q, %v; want %q, %v", c.declared, got, err, c.want, c.err)
		}
	}
}
