package ui

import (
	"orogen/app/doc"
	"orogen/app/project"
	"orogen/viewer"
)

// applyView takes the view settings a project keeps: where the map looks,
// the overlay, rivers and lakes, the tint range and the brush.
func (a *App) applyView(v project.View) {
	o := viewer.DefaultOptions()
	if ov, err := viewer.ParseOverlay(v.Overlay); err == nil {
		o.Overlay = ov
	}
	if v.RiverThresholdM2 > 0 {
		o.RiverThresholdM2 = v.RiverThresholdM2
	}
	o.Rivers, o.Lakes = v.Rivers, v.Lakes
	o.TintMinM, o.TintMaxM = v.TintMinM, v.TintMaxM
	if err := o.Validate(); err == nil {
		a.vopts = o
	}
	if v.Zoom > 0 {
		a.view = viewer.View{CenterX: v.CenterX, CenterY: v.CenterY, Zoom: v.Zoom}
		a.fitView = false
	}
	if b, err := v.Brush.Brush(); err == nil {
		a.brush = b
	}
	a.arrows = v.Extra["arrows"] == "on"
	switch {
	case v.Extra["view"] == "split":
		a.mode = modeSplit
	case v.Mode == "3d":
		a.mode = mode3D
	default:
		a.mode = mode2D
	}
	if v.Camera.Exaggeration > 0 {
		a.v3.opts.Exaggeration = v.Camera.Exaggeration
	}
	a.v3.fit = true
	a.v3.savedCam = v.Camera
}

// storeView writes the current view settings into the document before a
// save (the session's Options.StoreView).
func (a *App) storeView(d *doc.Doc) error {
	v := d.View()
	v.CenterX, v.CenterY, v.Zoom = a.view.CenterX, a.view.CenterY, a.view.Zoom
	v.Overlay = a.vopts.Overlay.String()
	v.RiverThresholdM2 = a.vopts.RiverThresholdM2
	v.Rivers, v.Lakes = a.vopts.Rivers, a.vopts.Lakes
	v.TintMinM, v.TintMaxM = a.vopts.TintMinM, a.vopts.TintMaxM
	v.Brush = project.SettingsOf(a.brush)
	if v.Extra == nil {
		v.Extra = map[string]string{}
	}
	v.Extra["arrows"] = map[bool]string{true: "on", false: "off"}[a.arrows]
	v.Mode = map[bool]string{true: "3d", false: "2d"}[a.mode == mode3D]
	v.Extra["view"] = map[bool]string{true: "split", false: "single"}[a.mode == modeSplit]
	if a.v3.shown {
		dom := d.Scene().DomainM
		v.Camera = project.Camera{Yaw: a.v3.cam.Yaw, Pitch: a.v3.cam.Pitch, Distance: a.v3.cam.Distance / dom,
			Exaggeration: a.v3.opts.Exaggeration}
	}
	return d.SetView(v)
}
