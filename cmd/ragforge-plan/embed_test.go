package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/embed"
	"github.com/ragforge/ragforge/internal/embed/embedtest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// embedConfig is the embed package's test config: Notes with two
// vector-indexed texts.
const embedConfig = "../../internal/embed/testdata/notes.yaml"

// embedded counts the notes holding a text vector.
func embedded(t *testing.T, d neo4j.DriverWithContext) int64 {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, "MATCH (n:Note) WHERE n.text_embedding IS NOT NULL RETURN count(n)", nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	return res.Records[0].Values[0].(int64)
}

// TestEmbedResumesAfterAKill runs the real command on 300 notes in
// batches of 100, SIGKILLs it while its second embeddings request is
// pending (the first batch is committed by then: a batch is written before
// the next is read), and runs it again: the first batch stays, and the
// second run embeds only the other 200 in two requests.
func TestEmbedResumesAfterAKill(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "UNWIND range(1, 300) AS i CREATE (:Note {id: 'n' + i, user_id: 'u' + (i % 3), text: 'note ' + i})", nil)
	srv := embedtest.New(t)
	second, release := make(chan struct{}), make(chan struct{})
	srv.Before = func(n int) int {
		if n == 2 {
			close(second)
			<-release
			return 503
		}
		return 0
	}
	args := append([]string{"embed", embedConfig, "--field", "Note.text", "--batch", "100", "--embedder", "openai", "--embedder-url", srv.URL}, neo4jtest.Flags(t)...)
	cmd := exec.Command(buildCommand(t), args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-second:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("no second request within 2 minutes; output:\n%s", out.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(release)
	if got := embedded(t, d); got != 100 {
		t.Fatalf("after the kill %d notes hold a vector, want the first batch's 100", got)
	}

	srv.Before = nil
	before := srv.Requests()
	code, stdout, stderr := execute(t, append(args[:len(args):len(args)], "--format", "json")...)
	if code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	var rep struct {
		OK      bool                `json:"ok"`
		Indexes []embed.IndexReport `json:"indexes"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if r := rep.Indexes[0]; !rep.OK || len(rep.Indexes) != 1 || r.Embedded != 200 || r.Current != 100 || r.Batches != 2 {
		t.Errorf("rerun report %+v, want 200 embedded in 2 batches and 100 current", rep)
	}
	if got := srv.Requests() - before; got != 2 {
		t.Errorf("rerun sent %d requests, want 2", got)
	}
	if got := embedded(t, d); got != 300 {
		t.Errorf("after the rerun %d notes hold a vector, want 300", got)
	}
}

// TestEmbedNeedsAnEmbedderAndAKnownField checks the refusals that come
// before connecting.
func TestEmbedNeedsAnEmbedderAndAKnownField(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"embed", embedConfig}, "embed needs an embedder: give --embedder offline or --embedder openai"},
		{[]string{"embed", embedConfig, "--embedder", "offline", "--field", "Note.id"}, `--field "Note.id" is not a vector-indexed field (fields: Note.text, Note.title)`},
		{[]string{"embed", embedConfig, "--embedder", "offline", "--batch", "0"}, "--batch must be at least 1"},
	} {
		code, _, stderr := execute(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", c.args, code, stderr, c.want)
		}
	}
}
