package similar_test

import (
	"errors"

	"github.com/ragforge/ragforge/tools"
)

func asCallError(err error, target **tools.CallError) bool { return errors.As(err, target) }
