package enum

import (
	"errors"
	"testing"
)

type colour uint8

var colourNames = [...]string{"red", "green", "blue"}

func TestParse(t *testing.T) {
	for i, n := range colourNames {
		if got, err := Parse[colour]("colour", colourNames[:], n); err != nil || got != colour(i) {
			t.Errorf("Parse(%q): got %v, %v; want %d", n, got, err, i)
		}
		if got := Name(colourNames[:], colour(i)); got != n {
			t.Errorf("Name(%d): got %q; want %q", i, got, n)
		}
	}
	if got := Name(colourNames[:], colour(9)); got != "colour(9)" {
		t.Errorf("Name(9): got %q; want colour(9)", got)
	}
	_, err := Parse[colour]("colour", colourNames[:], "Red")
	var e *Error
	if !errors.As(err, &e) || err.Error() != `unknown colour "Red": want red, green or blue` {
		t.Errorf(`Parse("Red"): got %v; want unknown colour "Red": want red, green or blue`, err)
	}
	if got, err := ParseFold[colour]("colour", colourNames[:], " Blue "); err != nil || got != 2 {
		t.Errorf(`ParseFold(" Blue "): got %v, %v; want 2`, got, err)
	}
	if _, err := ParseFold[colour]("colour", colourNames[:], "Mauve"); err == nil || err.Error() != `unknown colour "Mauve": want red, green or blue` {
		t.Errorf(`ParseFold("Mauve"): got %v; want unknown colour "Mauve": want red, green or blue`, err)
	}
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, "nothing"},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := List(tc.in); got != tc.want {
			t.Errorf("List(%q): got %q; want %q", tc.in, got, tc.want)
		}
	}
}
