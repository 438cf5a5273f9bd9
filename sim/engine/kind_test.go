package engine

import (
	"slices"
	"strings"
	"testing"
)

func TestParseKind(t *testing.T) {
	for k := range numKinds {
		got, err := ParseKind(k.String())
		if k.Scene() != (err == nil) || (err == nil && got != k) {
			t.Errorf("ParseKind(%q): got %v, %v; want %v and an error only for a kind that is not a scene's", k, got, err, k)
		}
	}
	var scene []Kind
	for k := range numKinds {
		if k.Scene() {
			scene = append(scene, k)
		}
	}
	if !slices.Equal(scene, SceneKinds) {
		t.Errorf("kinds that report Scene: got %v; want SceneKinds %v", scene, SceneKinds)
	}
	if got, err := ParseKind(""); got != Grid || err != nil {
		t.Errorf(`ParseKind(""): got %v, %v; want grid`, got, err)
	}
	if _, err := ParseKind("voxel"); err == nil || !strings.Contains(err.Error(), `unknown engine "voxel": want grid, graph or roudier`) {
		t.Errorf(`ParseKind("voxel"): got %v; want unknown engine "voxel": want grid, graph or roudier`, err)
	}
	if got := Kind(9).String(); got != "Kind(9)" {
		t.Errorf("Kind(9).String(): got %q; want Kind(9)", got)
	}
}
