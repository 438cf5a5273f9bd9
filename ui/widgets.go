package ui

import (
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
)

// cimgui-go passes its fmt arguments to ImGui's printf-style functions with
// no further arguments, so a % in user text (a file name, an error) would
// read garbage. These helpers escape it.

func escape(s string) string { return strings.ReplaceAll(s, "%", "%%") }

func textWrapped(s string)  { imgui.TextWrapped(escape(s)) }
func textDisabled(s string) { imgui.TextDisabled(escape(s)) }
func tooltip(s string)      { imgui.SetTooltip(escape(s)) }

func vec2(x, y float32) imgui.Vec2 { return imgui.Vec2{X: x, Y: y} }

// rgba packs a colour for draw lists.
func rgba(r, g, b, a uint8) uint32 {
	return uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(a)<<24
}

// titles returns an enum's names as labels: "raise" → "Raise".
func titles(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToUpper(n[:1]) + n[1:]
	}
	return out
}

// noNavButton is a button keyboard navigation skips: one that deletes
// (End then Enter went to a constraint's Delete button and deleted it).
// The mouse still clicks it.
func noNavButton(label string) bool {
	imgui.PushItemFlag(imgui.ItemFlagsNoNav, true)
	defer imgui.PopItemFlag()
	return imgui.Button(label)
}
