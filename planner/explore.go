package planner

// arrows renders a relationship pattern per direction seen from the start.
var arrows = map[string][2]string{
	"outgoing": {"-", "->"},
	"incoming": {"<-", "-"},
	"both":     {"-", "-"},
}

// reversed is the direction seen from the other end.
var reversed = map[string]string{"outgoing": "incoming", "incoming": "outgoing", "both": "both"}
