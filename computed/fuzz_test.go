package computed

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ragforge/ragforge/internal/textvalue"
)

// FuzzCompile feeds arbitrary expressions through parse, check and compile:
// nothing may panic, and every fragment must consist only of the config's
// identifiers (backticked), its literals (as Cypher string or number
// literals that decode to exactly those constants) and the fixed keywords
// and punctuation the compiler writes — read after Cypher's own \uXXXX
// pre-processing, so an escape cannot smuggle a quote out of a literal.
func FuzzCompile(f *testing.F) {
	for _, e := range fixedExpressions {
		f.Add(e, uint8(0))
	}
	for _, e := range []string{`s1 + "\\u0027) RETURN 1 //"`, "s1 + '`'", `s1 == "\\\\u0060"`, "s1 matches '^[\\\\x{27}]+'", "'\\x00' + s1"} {
		f.Add(e, uint8(3))
	}
	types := []string{"integer", "number", "boolean", "string", "datetime"}
	f.Fuzz(func(t *testing.T, src string, typ uint8) {
		ce, err := Compile(diffEntity(src, types[int(typ)%len(types)]))
		if err != nil {
			return
		}
		field := ce.Field("f")
		frag, err := field.Fragment(Options{})
		if err != nil {
			t.Fatalf("Fragment: %v", err)
		}
		allowed := map[string]bool{"HALF_UP": true, "Z": true, isoJava: true,
			textvalue.Number: true, textvalue.Integer: true, textvalue.Datetime: true, " ": true, "T": true,
			"-": true, ":": true, ".": true, "00": true}
		// A layout (t4's, or parse_datetime's constant) writes its pattern.
		layouts := []string{testLayout}
		for _, fl := range ce.Fields {
			if fl.tree == nil {
				continue
			}
			walk(fl.tree, func(n node) {
				switch x := n.(type) {
				case *lit:
					if s, ok := x.value.(string); ok {
						allowed[s] = true
						layouts = append(layouts, s)
					}
				case *match:
					allowed[x.java] = true
				}
			})
		}
		for _, s := range layouts {
			if l, err := textvalue.ParseLayout(s); err == nil {
				allowed[l.Pattern()] = true
			}
		}
		if err := checkTokens(frag.Cypher, allowed); err != nil {
			t.Fatalf("%v\nexpression: %q\ncypher: %s", err, src, frag.Cypher)
		}
		_, _ = field.Eval(map[string]any{"i1": 1, "s1": "x", "x1": 0.5})
	})
}

var (
	keywords = regexp.MustCompile(`^(CASE|CONTAINS|STARTS|ENDS|WITH|WHERE|WHEN|THEN|ELSE|END|AND|OR|NOT|IS|NULL|IN|DATE|true|false|null|toFloat|nullIf|coalesce|size|abs|ceil|floor|round|toLower|toUpper|trim|datetime|date|epochMillis|epochSeconds|timezone|year|month|day|hour|dayOfWeek|truncate|fromepochmillis|duration|nanoseconds|nanosecond|ZONED|DATETIME|n|toInteger|replace|substring|__rf_m[0-9]+|__rf_t[0-9]+|__rf_c[0-9]+|__rf_dt)$`)
	identOK  = map[string]bool{}
)

func init() {
	for _, f := range diffEntity("1", "integer").Fields {
		identOK[f.Name] = true
	}
}

// checkTokens reads cypher as Neo4j's lexer would and reports the first
// token that is not an allowed keyword, identifier, literal or operator.
func checkTokens(cypher string, literals map[string]bool) error {
	s := javaUnicodePreprocess(cypher)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '\'':
			val, n, err := readString(s[i:])
			if err != nil {
				return err
			}
			if !literals[val] {
				return fmt.Errorf("string literal %q is not a config literal", val)
			}
			i += n
		case c == '`':
			j := i + 1
			var name strings.Builder
			for {
				if j >= len(s) {
					return fmt.Errorf("unterminated identifier")
				}
				if s[j] == '`' {
					if j+1 < len(s) && s[j+1] == '`' {
						name.WriteByte('`')
						j += 2
						continue
					}
					break
				}
				name.WriteByte(s[j])
				j++
			}
			if !identOK[name.String()] {
				return fmt.Errorf("identifier %q is not a config name", name.String())
			}
			i = j + 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && strings.IndexByte("0123456789.e+-", s[j]) >= 0 {
				if (s[j] == '+' || s[j] == '-') && s[j-1] != 'e' {
					break
				}
				j++
			}
			if _, err := strconv.ParseFloat(s[i:j], 64); err != nil {
				return fmt.Errorf("bad number %q", s[i:j])
			}
			i = j
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if !keywords.MatchString(s[i:j]) {
				return fmt.Errorf("unexpected word %q", s[i:j])
			}
			i = j
		case strings.HasPrefix(s[i:], "::"), strings.HasPrefix(s[i:], "<>"), strings.HasPrefix(s[i:], "<="), strings.HasPrefix(s[i:], ">="), strings.HasPrefix(s[i:], "=~"):
			i += 2
		case strings.IndexByte("()[]{},.:|+-*/%^=<>", c) >= 0:
			i++
		default:
			return fmt.Errorf("unexpected character %q at %d", c, i)
		}
	}
	return nil
}

// javaUnicodePreprocess decodes \uXXXX where the backslash is preceded by
// an even number of backslashes, as Cypher's lexer does before tokenizing.
func javaUnicodePreprocess(s string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && run%2 == 0 && i+5 < len(s)+0 && i+1 < len(s) && s[i+1] == 'u' {
			j := i + 1
			for j < len(s) && s[j] == 'u' {
				j++
			}
			if j+4 <= len(s) {
				if v, err := strconv.ParseUint(s[j:j+4], 16, 16); err == nil {
					b.WriteRune(rune(v))
					i = j + 3
					run = 0
					continue
				}
			}
		}
		if s[i] == '\\' {
			run++
		} else {
			run = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readString decodes a single-quoted Cypher string literal at the start of s.
func readString(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\'':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("dangling backslash")
			}
			switch s[i+1] {
			case '\\', '\'', '"':
				b.WriteByte(s[i+1])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			default:
				return "", 0, fmt.Errorf("unknown escape \\%c", s[i+1])
			}
			i += 2
		default:
			b.WriteRune(r)
			i += size
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}
