package session

import (
	"fmt"
	"os"

	"orogen/sim/geology"
)

// Geology returns the document's geology (nil: uniform rock). Treat it as
// read-only: edit a Clone and give it to SetGeology.
func (s *Session) Geology() *geology.Spec { return s.doc.Scene().Geology }

// SetGeology replaces the document's geology (nil: uniform rock), an undo
// entry named label (merge as for the parameters), and hands it to the
// engine, which erodes by it from its next step.
func (s *Session) SetGeology(g *geology.Spec, label, merge string) error {
	if err := s.doc.SetGeology(g, label, merge); err != nil {
		return err
	}
	s.Sync()
	return nil
}

// LoadGeology reads a geology JSON file (package geology's Spec) into the
// document.
func (s *Session) LoadGeology(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("geology: %w", err)
	}
	var g geology.Spec
	if err := geology.DecodeSpec(b, &g); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := s.SetGeology(&g, "Load geology", ""); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s.logf(Info, "geology from %s", path)
	return nil
}

// PresetGeology is the layered rock the Geology panel starts from:
// alternating clay and quartzite, gently folded.
func PresetGeology() *geology.Spec {
	return &geology.Spec{Base: -500,
		Stack: []geology.Group{{Repeat: 10, Layers: []geology.Layer{
			{Name: "clay", Thickness: 120, Rock: geology.Clay.Name},
			{Name: "quartzite", Thickness: 50, Rock: geology.Quartzite.Name}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: 30, Wavelength: 15000, Amplitude: 200}}}
}
