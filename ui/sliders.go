package ui

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/session"
)

// thresholdSlider is the view's one live setting among the Simulation
// panel's sliders: it changes the picture, not the simulation.
var thresholdSlider = session.Param{Name: "threshold", Label: "river threshold", Unit: "km²",
	Help: "Drainage area above which the preview draws a river; rivers widen as log A grows. " +
		"A display setting, it does not change the simulation.",
	Min: 0.01, Max: 1e4, Log: true, Format: "%.3g"}

// sliders are the Simulation panel's sliders, in panel order: the
// document's live parameters (session.Params), then the river threshold.
var sliders = append(slices.Clone(session.Params), thresholdSlider)

// sliderNames are the names `set` accepts, sorted.
func sliderNames() []string {
	var n []string
	for _, s := range sliders {
		n = append(n, s.Name)
	}
	sort.Strings(n)
	return n
}

// A value slider moves a position t in [0, 1] (float32, as Dear ImGui's
// sliders hold it) and maps it to the value in float64: t = 0 is exactly
// lo and t = 1 exactly hi, so every slider reaches both ends whatever
// float32 makes of them, and a logarithmic slider spreads its decades
// evenly whatever its display format. (Dear ImGui's own logarithmic
// slider takes the smallest value it tells from zero from the format's
// precision, 0.001 for "%.3g", which collapsed the k slider's range
// [1e-9, 1e-3]; and float32(1e-3) is above the float64 1e-3 the range
// check wants.) Ctrl+click or a double-click types the value instead,
// in float64, for the values between two slider positions.

// sliderPos is value v's position on a slider over [lo, hi].
func sliderPos(v, lo, hi float64, log bool) float32 {
	var t float64
	if log {
		if v <= lo {
			return 0
		}
		t = math.Log(v/lo) / math.Log(hi/lo)
	} else {
		t = (v - lo) / (hi - lo)
	}
	if !(t > 0) {
		return 0
	}
	return float32(min(t, 1))
}

// sliderValueAt is the value at position t of a slider over [lo, hi]: the
// ends exactly, values between clamped to the range.
func sliderValueAt(t float32, lo, hi float64, log bool) float64 {
	switch {
	case t <= 0:
		return lo
	case t >= 1:
		return hi
	}
	var v float64
	if log {
		v = lo * math.Exp(float64(t)*math.Log(hi/lo))
	} else {
		v = lo + float64(t)*(hi-lo)
	}
	return min(max(v, lo), hi)
}

// sliderTyping is the slider whose value is being typed (one at a time).
var sliderTyping struct {
	id    imgui.ID
	v     float64
	focus bool // give the field the keyboard on its first frame
}

// sliderRects are the screen rectangles of the sliders' frames (without
// their labels) drawn so far, by label: the window test clicks them with
// real X events.
var sliderRects = map[string][4]float32{}

// itemRects are the screen rectangles of other items the window test
// clicks (the tools' radio buttons, by tool name) and of windows it looks
// at in screenshots (by window name), as last drawn.
var itemRects = map[string][4]float32{}

// recordItemRect records the last item's rectangle under name.
func recordItemRect(name string) {
	lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
	itemRects[name] = [4]float32{lo.X, lo.Y, hi.X, hi.Y}
}

// recordWindowRect records the current window's rectangle under name.
func recordWindowRect(name string) {
	p, sz := imgui.WindowPos(), imgui.WindowSize()
	itemRects[name] = [4]float32{p.X, p.Y, p.X + sz.X, p.Y + sz.Y}
}

// valueSlider draws a slider over [lo, hi] for v and returns the new value
// and whether the user changed it this frame. Ctrl+click or double-click
// opens a typed field (Enter or leaving it applies, Escape cancels); a
// typed value is returned as typed, for the caller's range check to judge.
func valueSlider(label string, v, lo, hi float64, log bool, format string) (float64, bool) {
	id := imgui.IDStr(label)
	if sliderTyping.id == id && id != 0 {
		if sliderTyping.focus {
			imgui.SetKeyboardFocusHere()
			sliderTyping.focus = false
		}
		w := imgui.CalcItemWidth()
		imgui.InputDoubleV(label, &sliderTyping.v, 0, 0, "%.6g", imgui.InputTextFlagsAutoSelectAll)
		recordSliderRect(label, w)
		// Enter or a click elsewhere leaves the field with the value;
		// Escape leaves it unedited.
		if imgui.IsItemDeactivated() {
			sliderTyping.id = 0
			if imgui.IsItemDeactivatedAfterEdit() {
				return sliderTyping.v, true
			}
		}
		return v, false
	}
	t := sliderPos(v, lo, hi, log)
	text := strings.ReplaceAll(fmt.Sprintf(format, v), "%", "%%")
	flags := imgui.SliderFlagsAlwaysClamp | imgui.SliderFlagsNoInput | imgui.SliderFlagsNoRoundToFormat
	w := imgui.CalcItemWidth()
	changed := imgui.SliderFloatV(label, &t, 0, 1, text, flags)
	recordSliderRect(label, w)
	if imgui.IsItemActivated() && (imgui.CurrentIO().KeyCtrl() || imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft)) {
		sliderTyping.id, sliderTyping.v, sliderTyping.focus = id, v, true
		imgui.InternalClearActiveID()
		return v, false
	}
	if !changed {
		return v, false
	}
	return sliderValueAt(t, lo, hi, log), true
}

// fitLabel narrows the next item so that its label fits beside it: Dear
// ImGui's default width, two thirds of the panel, cut "hillslope
// diffusivity" and "vertical exaggeration" in panels of a 1600 px window.
func fitLabel(label string) {
	if i := strings.Index(label, "##"); i >= 0 {
		label = label[:i]
	}
	avail := imgui.ContentRegionAvail().X
	lw := imgui.CalcTextSize(label).X + imgui.CurrentStyle().ItemInnerSpacing().X
	imgui.SetNextItemWidth(max(avail-lw, avail*0.4))
}

// recordSliderRect records the last item's frame, w wide (its rectangle
// holds the label too).
func recordSliderRect(label string, w float32) {
	lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
	sliderRects[label] = [4]float32{lo.X, lo.Y, lo.X + w, hi.Y}
}
