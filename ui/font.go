package ui

import (
	"os"
	"path/filepath"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/assets"
)

// addSymbolFont merges assets.SymbolFont into Dear ImGui's default font,
// so "→", "θ" or "≥" are drawn instead of "?". Dear ImGui reads the font
// from a file into memory it owns (memory handed over from Go could not
// stay with C); the file is a temporary copy, removed at once. Without it
// the labels keep their "?".
func addSymbolFont(io *imgui.IO) error {
	f, err := os.CreateTemp("", "orogen-font-*.ttf")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(assets.SymbolFont); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fonts := io.Fonts()
	fonts.AddFontDefault()
	cfg := imgui.NewFontConfig()
	cfg.SetMergeMode(true)
	fonts.AddFontFromFileTTFV(filepath.Clean(f.Name()), 13, cfg, nil)
	return nil
}
