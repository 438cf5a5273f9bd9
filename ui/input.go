package ui

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"
)

// sendModifiers tells Dear ImGui which modifier keys are down; Update
// calls it before every frame. cimgui-go v1.4.0's Ebiten backend writes
// io.KeyCtrl, KeyShift and KeyAlt directly, but Dear ImGui 1.92 recomputes
// them in NewFrame from the ImGuiMod_Ctrl/Shift/Alt/Super key events,
// which the backend never sends: without these events no Ctrl or Shift
// shortcut fires (Ctrl+Z, Ctrl+click on a slider, Shift-drag of a pin).
// AddKeyEvent drops an event that repeats the key's last state, so sending
// all four every frame costs nothing. The same on every platform: Ebiten's
// KeyControl, KeyShift, KeyAlt and KeyMeta are either side's key.
func sendModifiers(io *imgui.IO) {
	io.AddKeyEvent(imgui.ModCtrl, ebiten.IsKeyPressed(ebiten.KeyControl))
	io.AddKeyEvent(imgui.ModShift, ebiten.IsKeyPressed(ebiten.KeyShift))
	io.AddKeyEvent(imgui.ModAlt, ebiten.IsKeyPressed(ebiten.KeyAlt))
	io.AddKeyEvent(imgui.ModSuper, ebiten.IsKeyPressed(ebiten.KeyMeta))
}
