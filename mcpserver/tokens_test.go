package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTokens(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadTokensReadsJSONAndYAML(t *testing.T) {
	for name, data := range map[string]string{
		"tokens.json": `[{"token": "a"}, {"token": "b", "tenant": "acme"}]`,
		"tokens.yaml": "- token: a\n- token: b\n  tenant: acme\n",
	} {
		ts, err := LoadTokens(writeTokens(t, name, data))
		if err != nil || len(ts) != 2 || ts[0] != (Token{Token: "a"}) || ts[1] != (Token{Token: "b", Tenant: "acme"}) {
			t.Errorf("%s: %+v, %v", name, ts, err)
		}
	}
}

func TestLoadTokensRejectsMistakesThatWouldOpenOrCloseTheServer(t *testing.T) {
	for data, want := range map[string]string{
		`[{"token": "a"}, {"tokn": "b"}]`:   "field tokn not found",
		`[{"token": "a"}, {"token": ""}]`:   "entry 2 has no token",
		`[{"token": "a"}, {"token": "a"}]`:  "entry 2 repeats an earlier token",
		`[]`:                                "no tokens",
		`{"token": "a"}`:                    "want a list",
		"- token: a\n  tenant: [x]\n":       "want a list",
		`[{"token": "a", "tenant": "acme"}`: "want a list",
	} {
		_, err := LoadTokens(writeTokens(t, "tokens.yaml", data))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", data, err, want)
		}
	}
}

func TestCheckTenantsWantsEveryTokenBoundExactlyWhenTheConfigIsScoped(t *testing.T) {
	if err := CheckTenants([]Token{{Token: "a"}}, false); err != nil {
		t.Errorf("unbound token, unscoped config: %v", err)
	}
	err := CheckTenants([]Token{{Token: "a"}, {Token: "b", Tenant: "acme"}}, false)
	if err == nil || !strings.Contains(err.Error(), `token 2 is bound to tenant "acme", but the config declares no tenant`) {
		t.Errorf("bound token, unscoped config: %v", err)
	}
	if err := CheckTenants([]Token{{Token: "a", Tenant: "x"}, {Token: "b", Tenant: "acme"}}, true); err != nil {
		t.Errorf("bound tokens, scoped config: %v", err)
	}
	err = CheckTenants([]Token{{Token: "a", Tenant: "x"}, {Token: "b"}}, true)
	if err == nil || !strings.Contains(err.Error(), "token 2 is bound to no tenant") {
		t.Errorf("unbound token, scoped config: %v", err)
	}
}

func TestVerifierMakesEachTokenItsOwnUserAndCarriesItsTenant(t *testing.T) {
	v := verifier([]Token{{Token: "a"}, {Token: "b", Tenant: "acme"}})
	a, errA := v(context.Background(), "a", nil)
	b, errB := v(context.Background(), "b", nil)
	if errA != nil || errB != nil || a.UserID == b.UserID || a.Extra["tenant"] != nil || b.Extra["tenant"] != "acme" {
		t.Errorf("a %+v (%v), b %+v (%v)", a, errA, b, errB)
	}
	if _, err := v(context.Background(), "c", nil); err == nil {
		t.Error("an unknown token was accepted")
	}
}

func TestHTTPHandlerAnswersOnlyRequestsWithAToken(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{Tokens: []Token{{Token: "s3cret"}}}))
	defer srv.Close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for token, want := range map[string]int{"": http.StatusUnauthorized, "wrong": http.StatusUnauthorized, "s3cret": http.StatusOK} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+Path, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("token %q: status %d, want %d", token, res.StatusCode, want)
		}
	}
}
