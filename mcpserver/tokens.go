package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"fmt"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"go.yaml.in/yaml/v3"
)

// EnvTokensFile names the tokens file when no --tokens flag is given.
const EnvTokensFile = "RAGFORGE_MCP_TOKENS_FILE"

// Token is one bearer token the HTTP transport accepts. Tenant binds the
// token to one tenant of a tenant-scoped config: every call made with it
// runs under that tenant (tenant.With), whatever the engine's default.
type Token struct {
	Token  string `json:"token" yaml:"token"`
	Tenant string `json:"tenant,omitempty" yaml:"tenant,omitempty"`
}

// LoadTokens reads a tokens file: a JSON or YAML list of {token, tenant?}.
// Unknown keys, empty tokens and a token listed twice are errors, since
// each is a mistake that would otherwise let the wrong client in or keep
// the right one out.
func LoadTokens(path string) ([]Token, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ts []Token
	dec := yaml.NewDecoder(bytes.NewReader(data)) // YAML is a superset of JSON
	dec.KnownFields(true)
	if err := dec.Decode(&ts); err != nil {
		return nil, fmt.Errorf("%s: want a list of {token, tenant?}: %w", path, err)
	}
	seen := map[string]bool{}
	for i, t := range ts {
		switch {
		case t.Token == "":
			return nil, fmt.Errorf("%s: entry %d has no token", path, i+1)
		case seen[t.Token]:
			return nil, fmt.Errorf("%s: entry %d repeats an earlier token", path, i+1)
		}
		seen[t.Token] = true
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%s: no tokens (an empty file would leave the server open to anyone)", path)
	}
	return ts, nil
}

// CheckTenants checks the tokens against the config's tenancy before the
// server starts: with a tenant-scoped config (scoped true) every token
// must be bound to a tenant, or its calls would have no tenant; without
// one no token may be, since its calls could not be scoped and would see
// every tenant's data.
func CheckTenants(ts []Token, scoped bool) error {
	for i, t := range ts {
		switch {
		case scoped && t.Tenant == "":
			return fmt.Errorf("token %d is bound to no tenant, but the config scopes every call to a tenant: give it one ({token: ..., tenant: ...})", i+1)
		case !scoped && t.Tenant != "":
			return fmt.Errorf("token %d is bound to tenant %q, but the config declares no tenant (add tenant: {field: ...} to the config, or remove the binding)", i+1, t.Tenant)
		}
	}
	return nil
}

// verifier accepts exactly the listed tokens, comparing in constant time.
// Each token is its own user (UserID), so the SDK never lets one token's
// client use a session another token opened; a token's tenant travels in
// TokenInfo.Extra["tenant"], which the SDK hands every request of the
// session (CallToolRequest.Extra.TokenInfo).
func verifier(ts []Token) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		for i, t := range ts {
			if subtle.ConstantTimeCompare([]byte(token), []byte(t.Token)) == 1 {
				info := &auth.TokenInfo{UserID: fmt.Sprintf("token-%d", i+1)}
				if t.Tenant != "" {
					info.Extra = map[string]any{"tenant": t.Tenant}
				}
				return info, nil
			}
		}
		return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
	}
}
