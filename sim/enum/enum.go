package enum

import (
	"fmt"
	"reflect"
	"strings"
)

// Name returns names[v], or "Type(v)" (the type's own name, "Boundary(7)")
// for a value past the end of the table.
func Name[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", reflect.TypeFor[T]().Name(), uint8(v))
}

// Parse returns the value named s: its index in names. For a name not in
// the table it returns 0 and the error
//
//	unknown what "s": want a, b or c
//
// which callers prefix with their package.
func Parse[T ~uint8](what string, names []string, s string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	return 0, &Error{What: what, Name: s, Names: names}
}

// ParseFold is Parse for names typed by people: it ignores case and white
// space around s. The error quotes s as given.
func ParseFold[T ~uint8](what string, names []string, s string) (T, error) {
	t := strings.TrimSpace(s)
	for i, n := range names {
		if strings.EqualFold(t, n) {
			return T(i), nil
		}
	}
	return 0, &Error{What: what, Name: s, Names: names}
}

// An Error is a name that is not in an enumeration's table.
type Error struct {
	What  string   // what the values are: "edge", "brush kind"
	Name  string   // the name as given
	Names []string // the names that would do
}

func (e *Error) Error() string {
	return fmt.Sprintf("unknown %s %q: want %s", e.What, e.Name, List(e.Names))
}

// List joins names for a message: "a", "a or b", "a, b or c".
func List(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
