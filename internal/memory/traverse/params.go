package traverse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// decodeParams turns the agent's parameters into statement parameters:
// whole JSON numbers become integers (so LIMIT $n and integer comparisons
// work), other numbers floats. The tenant parameter is the engine's to
// bind, never the agent's.
func decodeParams(raw map[string]json.RawMessage) (map[string]any, error) {
	out := make(map[string]any, len(raw)+1)
	for k, v := range raw {
		if k == tenant.Param {
			return nil, tools.Fail(Name, "/params/"+k, nil, "$%s is bound by the engine to the caller's tenant and cannot be passed; drop it from params and use $%s in the query as it is", tenant.Param, tenant.Param)
		}
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			return nil, tools.Fail(Name, "/params/"+k, nil, "not a JSON value: %v", err)
		}
		p, err := param(x)
		if err != nil {
			return nil, tools.Fail(Name, "/params/"+k, nil, "%v", err)
		}
		out[k] = p
	}
	return out, nil
}

func param(x any) (any, error) {
	switch v := x.(type) {
	case json.Number:
		if !strings.ContainsAny(v.String(), ".eE") {
			if i, err := v.Int64(); err == nil {
				return i, nil
			}
		}
		f, err := v.Float64()
		if err != nil {
			return nil, fmt.Errorf("%s is out of range", v)
		}
		return f, nil
	case []any:
		out := make([]any, len(v))
		for i, y := range v {
			p, err := param(y)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, y := range v {
			p, err := param(y)
			if err != nil {
				return nil, err
			}
			out[k] = p
		}
		return out, nil
	}
	return x, nil
}
