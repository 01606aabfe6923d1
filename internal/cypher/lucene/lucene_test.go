package lucene

import "testing"

func TestEscapeLeavesNoQuerySyntax(t *testing.T) {
	for in, want := range map[string]string{
		`name:(x)`: `name\:\(x\)`,
		`a+b-c`:    `a\+b\-c`,
		`"q"~2`:    `\"q\"\~2`,
		`AND`:      `\AND`,
		`a b`:      `a\ b`,
		`C:\x/y`:   `C\:\\x\/y`,
		`[1 TO 5]`: `\[1\ TO\ 5\]`,
		`x*?^!&|`:  `x\*\?\^\!\&\|`,
		`{}`:       `\{\}`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
