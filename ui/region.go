package ui

import (
	"errors"
	"image"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/doc"
)

// regionTool is the Region tool: cells of the paint layer selected on the
// map, copied, and pasted (turned and scaled) where a click commits them.
// Its methods take the narrow toolCtx, not the App.
type regionTool struct{ state regionState }

// regionState is the Region tool's selection and floating paste.
type regionState struct {
	selecting bool
	x0, y0    float64         // map coordinates of the press
	sel       image.Rectangle // the selected cells
	clip      *doc.RegionClip
	floating  bool // a paste follows the cursor until a click commits it
	angle     float64
	scale     float64
	fx, fy    float64 // where the floating paste stands (map coordinates)
}

// regionMouse handles the Region tool: drag selects cells; while a paste
// floats it follows the cursor and a click commits it.
func (rt *regionTool) regionMouse(tc toolCtx, pressed, leftDown bool, mx, my float64) {
	r := &rt.state
	if r.floating {
		r.fx, r.fy = mx, my
		if imgui.IsKeyPressedBoolV(imgui.KeyEscape, false) {
			r.floating = false
			return
		}
		if pressed {
			rt.commitRegion(tc, mx, my)
		}
		return
	}
	switch {
	case pressed:
		r.selecting, r.x0, r.y0 = true, mx, my
	case leftDown && r.selecting:
		r.sel = cellRect(r.x0, r.y0, mx, my)
	case !leftDown && r.selecting:
		r.selecting = false
		r.sel = cellRect(r.x0, r.y0, mx, my)
	}
}

func cellRect(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(math.Floor(min(x0, x1))), int(math.Floor(min(y0, y1))), int(math.Ceil(max(x0, x1))), int(math.Ceil(max(y0, y1))))
}

// copyRegion copies the selected cells of the paint layer.
func (rt *regionTool) copyRegion(tc toolCtx, r image.Rectangle) error {
	c, err := tc.s.Doc().CopyRegion(tc.s.Doc().PaintLayer(), r)
	if err != nil {
		return err
	}
	rt.state.clip = c
	tc.logf("copied a %d×%d region of layer %q", c.Field.W, c.Field.H, c.Layer)
	return nil
}

// commitRegion pastes the floating region at map point (mx, my).
func (rt *regionTool) commitRegion(tc toolCtx, mx, my float64) {
	r := &rt.state
	if err := rt.pasteRegionAt(tc, mx, my, r.angle, r.scale); err != nil {
		tc.fail("Paste region", err)
		return
	}
	r.floating = false
}

func (rt *regionTool) pasteRegionAt(tc toolCtx, mx, my, angle, scale float64) error {
	if rt.state.clip == nil {
		return errors.New("no region copied: select one with the Region tool and copy it (Ctrl+C)")
	}
	if scale == 0 {
		scale = 1
	}
	box, err := tc.s.Doc().PasteRegion(tc.s.Doc().PaintLayer(), rt.state.clip, mx, my, angle, scale)
	if err != nil {
		return err
	}
	tc.logf("pasted a region over cells %v, turned %.0f°, ×%.2f", box, angle, scale)
	return nil
}

// drawRegion outlines the selection and the floating paste.
func (rt *regionTool) drawRegion(tc toolCtx, dl *imgui.DrawList) {
	r := &rt.state
	col := rgba(255, 255, 255, 220)
	if !r.sel.Empty() && tc.tool == toolRegion {
		x0, y0 := tc.toScreen(float64(r.sel.Min.X), float64(r.sel.Min.Y))
		x1, y1 := tc.toScreen(float64(r.sel.Max.X), float64(r.sel.Max.Y))
		dl.AddRectV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), col, 0, 0, 1.5)
	}
	if r.floating && r.clip != nil {
		hw, hh := float64(r.clip.Field.W)*r.scale/2, float64(r.clip.Field.H)*r.scale/2
		s, c := math.Sincos(r.angle * math.Pi / 180)
		var pts [4]imgui.Vec2
		for k, q := range [4][2]float64{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}} {
			x, y := tc.toScreen(r.fx+c*q[0]-s*q[1], r.fy+s*q[0]+c*q[1])
			pts[k] = vec2(float32(x), float32(y))
		}
		for k := range pts {
			dl.AddLineV(pts[k], pts[(k+1)%4], rgba(255, 200, 60, 240), 2)
		}
	}
}

// regionPanel is the Region tool's part of the Tools window.
func (rt *regionTool) regionPanel(tc toolCtx) {
	r := &rt.state
	textWrapped("Drag on the map to select cells of the paint layer; Copy (Ctrl+C), then Paste (Ctrl+V): the region follows the cursor, turn and scale it here, click the map to commit it (one undo step), Esc to cancel.")
	imgui.BeginDisabledV(r.sel.Empty())
	if imgui.Button("Copy") {
		if err := rt.copyRegion(tc, r.sel); err != nil {
			tc.fail("Copy region", err)
		}
	}
	imgui.EndDisabled()
	imgui.SameLine()
	imgui.BeginDisabledV(r.clip == nil)
	if imgui.Button("Paste") {
		r.floating = true
	}
	imgui.EndDisabled()
	if r.scale == 0 {
		r.scale = 1
	}
	sliderF64("turn (degrees)", &r.angle, -180, 180, false, "%.0f", "Rotation of the pasted region, clockwise on the map.")
	sliderF64("scale", &r.scale, 0.1, 8, true, "%.2f", "Size of the pasted region.")
	if r.floating && imgui.Button("Cancel paste") {
		r.floating = false
	}
}

func (a *App) copyRegionAction(args []string) error {
	return a.region.copyRegion(a.toolCtx(), cellRect(num(args, 0), num(args, 1), num(args, 2)+1, num(args, 3)+1))
}

func (a *App) pasteRegionAction(args []string) error {
	angle, scale := 0.0, 1.0
	if len(args) == 4 {
		angle, scale = num(args, 2), num(args, 3)
	}
	return a.region.pasteRegionAt(a.toolCtx(), num(args, 0)+0.5, num(args, 1)+0.5, angle, scale)
}
