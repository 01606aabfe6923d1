package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/model"
)

// The handler families of a catalog come in rank order with the
// application's tools at ApplicationRank, each built with the one
// environment, defaults filled; a family's error stops the build.
func TestHandlerFamiliesBuildInRankOrderAroundTheApplicationsTools(t *testing.T) {
	tool := func(name string) CustomTool {
		return CustomTool{Name: name, Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	}
	var seen Env
	RegisterHandlers(Handlers{Name: "late", Rank: ApplicationRank + 10, Build: func(*model.Model, Env) ([]CustomTool, error) {
		return []CustomTool{tool("late_tool")}, nil
	}})
	RegisterHandlers(Handlers{Name: "early", Rank: 1, Build: func(_ *model.Model, env Env) ([]CustomTool, error) {
		seen = env
		return []CustomTool{tool("early_tool")}, nil
	}})
	t.Cleanup(func() { delete(handlers, "late"); delete(handlers, "early") })
	got, err := BuildHandlers(&model.Model{}, Env{Database: "db"}, []CustomTool{tool("own_tool")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ct := range got {
		names = append(names, ct.Name)
	}
	if want := []string{"early_tool", "own_tool", "late_tool"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	if seen.Database != "db" || seen.Timeout <= 0 || seen.Now == nil {
		t.Errorf("Build saw %+v; want the caller's database with the timeout and clock defaulted", seen)
	}

	broken := errors.New("broken family")
	RegisterHandlers(Handlers{Name: "broken", Rank: 2, Build: func(*model.Model, Env) ([]CustomTool, error) { return nil, broken }})
	t.Cleanup(func() { delete(handlers, "broken") })
	if _, err := BuildHandlers(&model.Model{}, Env{}, nil); !errors.Is(err, broken) {
		t.Errorf("BuildHandlers with a failing family = %v; want its error", err)
	}
}
