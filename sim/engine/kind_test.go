package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestKindText(t *testing.T) {
	for _, s := range []string{"grid", "stream-graph", "gpu_grid2", ""} {
		var k Kind
		if err := k.UnmarshalText([]byte(s)); err != nil || k.String() != s {
			t.Errorf("UnmarshalText(%q): got %q, %v; want it back", s, k, err)
		}
		b, err := k.MarshalText()
		if err != nil || string(b) != s {
			t.Errorf("MarshalText(%q): got %q, %v", s, b, err)
		}
	}
	for _, s := range []string{"Grid", "1grid", "a b", "grid\n", strings.Repeat("a", 40)} {
		var k Kind
		if err := k.UnmarshalText([]byte(s)); err == nil {
			t.Errorf("UnmarshalText(%q): got %q; want an error", s, k)
		}
	}
	var v struct{ E Kind }
	if err := json.Unmarshal([]byte(`{"E":"roudier"}`), &v); err != nil || v.E != "roudier" {
		t.Errorf("json: got %q, %v", v.E, err)
	}
}
