package rasterio

import (
	"path/filepath"
	"strings"
	"testing"

	"orogen/sim"
)

func TestReadErrors(t *testing.T) {
	field := testField(6, 4, 1)
	png16 := encodeField(t, ".png", field)
	tif := encodeField(t, ".tif", field)
	goodMeta := `{"width":6,"height":4,"cell_size_m":30,"min_m":0,"max_m":1,"encoding":"png16"}`
	nanTIFF := func() []byte {
		f := sim.NewField(2, 1, 1)
		b := encodeField(t, ".tif", f)
		copy(b[len(b)-4:], []byte{0, 0, 0xc0, 0x7f}) // float32 NaN, little-endian
		return b
	}()
	type file struct{ name, data string }
	for _, tc := range []struct {
		name  string
		files []file
		open  string
		read  func(string) (*sim.Field, error)
		words []string // "$" stands for the directory
	}{
		{"truncated png", []file{{"h.png", string(png16[:len(png16)/2])}, {"h.json", goodMeta}}, "h.png", ReadHeights,
			[]string{"$/h.png", "truncated"}},
		{"truncated png header", []file{{"u.png", string(png16[:20])}}, "u.png", ReadNormalized,
			[]string{"$/u.png", "truncated"}},
		{"not a png", []file{{"u.png", "GIF89a and so on"}}, "u.png", ReadNormalized,
			[]string{"$/u.png", "not a readable PNG"}},
		{"truncated tiff", []file{{"h.tif", string(tif[:len(tif)-5])}}, "h.tif", ReadHeights,
			[]string{"$/h.tif", "truncated"}},
		{"lzw tiff", []file{{"u.tif", string(buildTIFF(false, make([]byte, 16), floatTIFFTags(2, 2, short(tagCompression, 5))))}}, "u.tif", ReadNormalized,
			[]string{"$/u.tif", "compression 5 (LZW) is not supported", "re-save as uncompressed 32-bit float TIFF"}},
		{"nan tiff", []file{{"h.tif", string(nanTIFF)}}, "h.tif", ReadHeights,
			[]string{"$/h.tif", "1 of 2 values are NaN"}},
		{"r16 wrong length", []file{{"uplift.r16", strings.Repeat("x", 1000)},
			{"uplift.json", `{"width":512,"height":512,"cell_size_m":30,"min_m":0,"max_m":1,"encoding":"r16"}`}},
			"uplift.r16", ReadNormalized,
			[]string{"$/uplift.r16: file has 1000 bytes, sidecar says 512×512 (524288 bytes): wrong file or wrong sidecar"}},
		{"r16 not square", []file{{"u.r16", strings.Repeat("x", 1000)}}, "u.r16", ReadNormalized,
			[]string{"$/u.r16", "no sidecar $/u.r16.json", "1000 bytes is not a square"}},
		{"r16 odd length", []file{{"u.r16", "xxx"}}, "u.r16", ReadNormalized,
			[]string{"not a square"}},
		{"png heights without sidecar", []file{{"h.png", string(png16)}}, "h.png", ReadHeights,
			[]string{"$/h.png", "sidecar $/h.png.json is missing", "h.json from an older release"}},
		{"r16 heights without sidecar", []file{{"h.r16", "xxxxxxxx"}}, "h.r16", ReadHeights,
			[]string{"$/h.r16", "sidecar $/h.r16.json is missing"}},
		{"corrupt sidecar", []file{{"h.png", string(png16)}, {"h.json", `{"width":6,`}}, "h.png", ReadHeights,
			[]string{"$/h.json", "not valid sidecar JSON", "fix the sidecar"}},
		{"unknown sidecar field", []file{{"h.png", string(png16)}, {"h.json", `{"width":6,"height":4,"cell_size_m":30,"min_m":0,"max_m":1,"encoding":"png16","units":"ft"}`}}, "h.png", ReadHeights,
			[]string{"$/h.json", "unknown field", "units"}},
		{"corrupt sidecar of uplift", []file{{"u.png", string(png16)}, {"u.json", `[]`}}, "u.png", ReadNormalized,
			[]string{"$/u.json", "not valid sidecar JSON"}},
		{"sidecar size", []file{{"h.png", string(png16)}, {"h.json", strings.Replace(goodMeta, `"width":6`, `"width":7`, 1)}}, "h.png", ReadHeights,
			[]string{"$/h.png: image is 6×4, sidecar $/h.json says 7×4: wrong file or wrong sidecar"}},
		{"sidecar size tiff", []file{{"u.tif", string(tif)}, {"u.json", strings.Replace(goodMeta, `"height":4`, `"height":5`, 1)}}, "u.tif", ReadNormalized,
			[]string{"wrong file or wrong sidecar"}},
		{"unknown extension heights", []file{{"h.bmp", "BM"}}, "h.bmp", ReadHeights,
			[]string{"$/h.bmp", `unknown extension ".bmp"`, ".png, .r16, .raw, .tif, .tiff"}},
		{"unknown extension uplift", []file{{"h.jpg", "x"}}, "h.jpg", ReadNormalized,
			[]string{"$/h.jpg", `unknown extension ".jpg"`, ".png, .r16, .raw, .tif, .tiff"}},
		{"missing heights", nil, "gone.tif", ReadHeights, []string{"$/gone.tif", "no such file"}},
		{"missing uplift", nil, "gone.png", ReadNormalized, []string{"$/gone.png", "no such file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				writeFile(t, dir, f.name, []byte(f.data))
			}
			f, err := tc.read(filepath.Join(dir, tc.open))
			if err == nil {
				t.Fatalf("got %d×%d field, no error", f.W, f.H)
			}
			t.Log(err) // go test -v shows every message as a user reads it
			for _, w := range tc.words {
				w = strings.ReplaceAll(w, "$", dir)
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q; want it to contain %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "rasterio: ") {
				t.Errorf("got error %q; want the prefix \"rasterio: \"", err)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		path  string
		f     *sim.Field
		words []string
	}{
		{"unknown extension", "h.jpg", testField(2, 2, 1), []string{`unknown extension ".jpg"`, ".png, .r16, .raw, .tif, .tiff, .obj"}},
		{"no extension", "heights", testField(2, 2, 1), []string{`unknown extension ""`}},
		{"zero cell", "h.png", sim.NewField(2, 2, 0), []string{"cell size 0 m"}},
		{"too wide", "h.r16", sim.NewField(MaxSide+1, 1, 1), []string{"32769×1", "limit is 32768"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := Write(filepath.Join(dir, tc.path), tc.f)
			if err == nil {
				t.Fatal("got no error")
			}
			t.Log(err)
			for _, w := range append(tc.words, tc.path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q; want it to contain %q", err, w)
				}
			}
			if got := dirNames(t, dir); len(got) != 0 {
				t.Errorf("directory holds %q; want nothing", got)
			}
		})
	}
}

func TestWritePanicsOnBadField(t *testing.T) {
	for _, f := range []*sim.Field{nil, {W: 2, H: 2, Cell: 1, Data: make([]float32, 3)}} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "rasterio: ") {
					t.Errorf("field %v: got panic %q; want one prefixed \"rasterio: \"", f, r)
				}
			}()
			Write(filepath.Join(t.TempDir(), "h.png"), f)
		}()
	}
}

func TestDecodeMeta(t *testing.T) {
	for _, tc := range []struct {
		json string
		word string // "" for valid
	}{
		{`{"width":1,"height":32768,"cell_size_m":0.5,"min_m":-3,"max_m":-3,"encoding":"float32-tiff"}`, ""},
		{` {"encoding":"r16","width":2,"height":2,"cell_size_m":1e3,"min_m":0,"max_m":9} ` + "\n", ""},
		{`{"width":0,"height":2,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"r16"}`, "width 0"},
		{`{"width":2,"height":32769,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"r16"}`, "height 32769"},
		{`{"width":2,"height":2,"cell_size_m":0,"min_m":0,"max_m":1,"encoding":"r16"}`, "cell_size_m 0"},
		{`{"width":2,"height":2,"cell_size_m":-1,"min_m":0,"max_m":1,"encoding":"r16"}`, "cell_size_m -1"},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":2,"max_m":1,"encoding":"r16"}`, "min_m 2 is above max_m 1"},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1e999,"encoding":"r16"}`, "not valid sidecar JSON"},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"jpeg"}`, `encoding "jpeg"`},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1}`, `encoding ""`},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"r16","extra":1}`, "unknown field"},
		{`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"r16"}{}`, "data after the object"},
		{`{"width":"2"}`, "not valid sidecar JSON"},
		{``, "not valid sidecar JSON"},
	} {
		m, err := DecodeMeta([]byte(tc.json))
		switch {
		case tc.word == "" && err != nil:
			t.Errorf("%s: got error %v; want none", tc.json, err)
		case tc.word == "" && m == nil:
			t.Errorf("%s: got nil Meta", tc.json)
		case tc.word != "" && (err == nil || !strings.Contains(err.Error(), tc.word)):
			t.Errorf("%s: got error %v; want one containing %q", tc.json, err, tc.word)
		}
	}
}
