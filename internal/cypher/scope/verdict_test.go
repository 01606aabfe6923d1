package scope_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/tenant"
)

// verdict checks scope.Check's answer against a case's want: "ok", or
// "refused " and a part of the reason.
func verdict(t *testing.T, c planCase, err error) {
	t.Helper()
	if c.want == "ok" {
		if err != nil {
			t.Errorf("%s\n  refused: %v", c.query, err)
		}
		return
	}
	part := strings.TrimPrefix(c.want, "refused ")
	var r *scope.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Reason, part) {
		t.Errorf("%s\n  got %v\n  want a refusal saying %q", c.query, err, part)
	}
}

func TestCheckOnRecordedPlans(t *testing.T) {
	for _, c := range readCases(t) {
		if c.plan == nil {
			t.Errorf("%s: no recorded plan; record it with %s", c.query, recordCommand)
			continue
		}
		verdict(t, c, scope.Check(c.plan, "user_id", tenant.Param))
	}
}
