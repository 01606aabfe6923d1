package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// connectingCommands are the commands (with their subcommand) that take
// the connection flags.
var connectingCommands = [][]string{
	{"call"}, {"plan"}, {"materialize"}, {"materialize", "apply"}, {"stats", "export"}, {"vet"},
	{"serve"}, {"schema", "apply"}, {"init"}, {"diagram", "render"}, {"fixture", "load"}, {"history", "import"},
}

func TestHelpOfEveryConnectingCommandNeverShowsThePassword(t *testing.T) {
	const secret = "secret-7c1f"
	t.Setenv("NEO4J_PASSWORD", secret)
	for _, args := range connectingCommands {
		_, out, errOut := execute(t, append(slices.Clone(args), "--help")...)
		if strings.Contains(out+errOut, secret) {
			t.Errorf("%s --help shows NEO4J_PASSWORD:\n%s%s", strings.Join(args, " "), out, errOut)
		}
		if !strings.Contains(errOut, "-password-file FILE") || !strings.Contains(errOut, "set NEO4J_PASSWORD") {
			t.Errorf("%s --help does not say where the password goes:\n%s", strings.Join(args, " "), errOut)
		}
	}
	for name := range commands {
		if _, out, errOut := execute(t, name, "--help"); strings.Contains(out+errOut, secret) {
			t.Errorf("%s --help shows NEO4J_PASSWORD:\n%s%s", name, out, errOut)
		}
	}
}

func TestPasswordInTheArgumentsIsRefusedWithWhereItGoes(t *testing.T) {
	for _, flag := range [][]string{{"--password", "x"}, {"--password=x"}, {"-password", "x"}} {
		args := append([]string{"call", codeRAG, "--tool", "query_entities", "--args", `{"entity_type":"Scope"}`, "--uri", "bolt://127.0.0.1:1"}, flag...)
		code, _, errOut := execute(t, args...)
		if code != 2 || !strings.Contains(errOut, "set NEO4J_PASSWORD or give --password-file FILE") {
			t.Errorf("%v: exit %d, stderr %s; want usage error 2 naming NEO4J_PASSWORD and --password-file", flag, code, errOut)
		}
	}
}

func TestConnectionUsesThePasswordFromTheEnvironmentOrAPasswordFile(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (:Scope {uuid: 'u1', name: 'Parse', type: 'function', startLine: 1, endLine: 3})`, nil)
	flags := neo4jtest.Flags(t)
	i := slices.Index(flags, "--password-file")
	if i < 0 {
		t.Fatalf("neo4jtest.Flags gives no --password-file: %v", flags)
	}
	file := flags[i+1]
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	password := strings.TrimSuffix(string(data), "\n")
	withoutFile := slices.Delete(slices.Clone(flags), i, i+2)
	call := func(flags []string) (int, string) {
		args := append([]string{"call", codeRAG, "--serve-contradicted", "--tool", "query_entities", "--args", `{"entity_type":"Scope"}`}, flags...)
		code, _, errOut := execute(t, args...)
		return code, errOut
	}

	t.Setenv("NEO4J_PASSWORD", password)
	if code, errOut := call(withoutFile); code != 0 {
		t.Errorf("with the password in NEO4J_PASSWORD: exit %d: %s", code, errOut)
	}
	t.Setenv("NEO4J_PASSWORD", "wrong")
	if code, errOut := call(flags); code != 0 {
		t.Errorf("with --password-file (and a wrong NEO4J_PASSWORD): exit %d: %s", code, errOut)
	}
	if code, errOut := call(withoutFile); code != 1 || !strings.Contains(errOut, "Unauthorized") {
		t.Errorf("with a wrong NEO4J_PASSWORD: exit %d, stderr %s; want exit 1 and the server's refusal", code, errOut)
	}
}
