package jsondoc

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	f := Format{Name: "thing", Version: 2, NoVersion: `add "version": 2`}
	type doc struct {
		Version int `json:"version"`
		Width   int `json:"width"`
	}
	for _, tc := range []struct {
		in, want string // want: a substring of the error, "" for none
	}{
		{`{"version": 2, "width": 5}`, ""},
		{"\ufeff{\"version\": 2,\r\n\"width\": 5}\r\n", ""}, // Notepad: BOM and CRLF
		{"\ufeff\ufeff{\"version\": 2}", "thing: line 1: "}, // one BOM only
		{"\ufeff{\"version\": 2,\r\n\"width\": 5,,}", "thing: line 2: "},
		{`{"width": 5}`, `thing: no "version": add "version": 2`},
		{`{"version": 3}`, "thing: version 3 is not supported: this Orogen reads version 2; a newer Orogen wrote it"},
		{`{"version": 1}`, "thing: version 1 is not supported: this Orogen reads version 2"},
		{`{"version": 2, "colour": "red"}`, `thing: json: unknown field "colour"`},
		{`{"version": 2, "width": "big"}`, "thing: width: string is not a valid int"},
		{"{\"version\": 2,\n\"width\": 5,,}", "thing: line 2: "},
		{`{"version": 2} }`, "thing: text after the JSON document"},
		{`{"version": 2`, "thing: unexpected EOF"},
	} {
		var d doc
		err := f.Decode([]byte(tc.in), &d)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Decode(%s): got %v; want no error", tc.in, err)
		case tc.want == "" && d.Width != 5:
			t.Errorf("Decode(%s): got width %d; want 5", tc.in, d.Width)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Decode(%s): got error %v; want one containing %q", tc.in, err, tc.want)
		}
	}
}

// TestStrictDuplicateKeys: a key given twice in one object is refused,
// at any depth, with its line; the same key in two objects is not.
func TestStrictDuplicateKeys(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type doc struct {
		A int     `json:"a"`
		B []inner `json:"b"`
		C inner   `json:"c"`
	}
	var d doc
	if err := Strict([]byte(`{"a": 1, "b": [{"a": 1}, {"a": 2}], "c": {"a": 3}}`), &d); err != nil {
		t.Fatalf("the same key in different objects: %v", err)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"a": 1, "a": 2}`, `line 1: key "a" is given twice`},
		{"{\"a\": 1,\n \"c\": {\"a\": 1,\n \"a\": 2}}", `line 3: key "a" is given twice`},
		{`{"b": [{"a": 1, "a": 1}]}`, `key "a" is given twice`},
		{`{"c": {"a": 1}, "b": [], "c": {}}`, `key "c" is given twice`},
	} {
		err := Strict([]byte(c.doc), &d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want %q", c.doc, err, c.want)
		}
	}
}
