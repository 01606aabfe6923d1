package neo4jvalue

import "context"

// wholeKey marks a context whose call asked for long strings whole.
type wholeKey struct{}

// WithWhole returns ctx marked so that the tools running under it return
// long strings whole: the host's verbose call (engine.Call.Verbose), which
// the engine passes to handler tools this way as it passes the tenant.
func WithWhole(ctx context.Context) context.Context {
	return context.WithValue(ctx, wholeKey{}, true)
}

// Whole reports whether ctx asks for long strings whole ([WithWhole]): a
// converter made with it ([New]) then cuts nothing.
func Whole(ctx context.Context) bool {
	v, _ := ctx.Value(wholeKey{}).(bool)
	return v
}
