package ui

import (
	_ "embed"
	"fmt"
	"image"
	"math"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// The views drawn by shaders (Kage): the snapshot's fields go to the GPU
// as textures when they change, and the 2D relief and the 3D surface are
// drawn there, one pixel per cell, by ui/shaders/surface.kage; the 3D
// terrain is viewer's projected draw list, back to front, coloured from
// the surface picture by ui/shaders/mesh.kage. viewer.Relief and
// viewer.Render3D stay the software path (orogen render, the golden
// tests, and the app when shaders fail or the views are set to the CPU).
//
// Heights, drainage areas and lake depths travel as the four bytes of
// their float32 in an RGBA texel (little-endian, as on every platform Go
// builds Orogen for), decoded in the shader: the heights are exact, not
// rounded to 16 bits.

var (
	//go:embed shaders/surface.kage
	surfaceKage string
	//go:embed shaders/rivers.kage
	riversKage string
	//go:embed shaders/discs.kage
	discsKage string
	//go:embed shaders/gather.kage
	gatherKage string
	//go:embed shaders/mesh.kage
	meshKage string
	//go:embed shaders/sky.kage
	skyKage string
	//go:embed shaders/copy.kage
	copyKage string
)

// gpuMaxSide is the largest grid side the shaders take: every field is
// one texture (Ebiten's largest image is the driver's texture limit,
// 16384 on Mesa's llvmpipe and more on current cards; 8192 leaves room).
const gpuMaxSide = 8192

// fieldTex is one snapshot's fields in textures: its heights, and its
// drainage areas and lake depths when it has them.
type fieldTex struct {
	hgt, area, water  *ebiten.Image
	snap              *engine.Snapshot // whose rows are in (nil: none)
	rows              int              // rows of snap's fields in, from the top
	hasArea, hasWater bool
}

// holds reports whether t holds all of s's fields.
func (t *fieldTex) holds(s *engine.Snapshot) bool { return s != nil && t.snap == s && t.rows == s.H }

// fieldSet is a view's snapshot fields on the GPU, double-buffered: the
// pictures draw from one pair of textures (the embedded fieldTex, the
// front) while a new snapshot goes up into the other (back), a band of
// rows a frame (loadSome), and the two swap once it is whole, so the
// pair a picture draws from is never written under it; pick makes either
// pair the front when it holds the snapshot a picture wants (the split
// view's 3D side may draw the snapshot the 2D side has just replaced,
// with no upload of its own). The back pair costs 192 MB at 4096².
//
// On an H200 the double-buffering alone did not shorten the 3D view's
// longest frames: those were bands written from the CPU into the 3D set's
// field textures, 20-42 ms a write, the first after the switch to 3D;
// the staging ring (staged) removed them (docs/GPU.md, session 19).
//
// Everything else here (the stand-in of absent fields, the bytes, the
// river image) is one texture, written by draws or redrawn whole.
type fieldSet struct {
	fieldTex // the front: the pair the pictures draw from
	back     fieldTex
	w, h     int
	zero     *ebiten.Image
	bytes    *ebiten.Image // viewer.SurfaceBytes, when a picture reads it, and the ramps below (lutAt)
	bytesLUT lutKey        // the ramps in bytes
	bytesOf  bytesKey
	buf      []byte
	rivers   *ebiten.Image
	riversOf riversKey
	// riversRows: rows of rivers drawn for riversOf, from the top.
	riversRows int
	uploads    int           // texture writes of fields (a band counts), for the tests
	sink       *ebiten.Image // 1×1: a band is drawn from once so it goes up in its frame
	// staged: on a card, the bands go up through a ring of staging
	// textures (stage) and are copied into the field textures on the
	// GPU, so no field texture is written from the CPU (on an H200 such
	// writes into the 3D set took 20-42 ms; the staging textures' took
	// 2-3 ms, in every run). false: straight into the field textures, as
	// on a software rasterizer, where the copies would cost CPU.
	staged bool
	stage  stageRing
	band   int // the most bytes a band holds (the staging textures' size)
	// early: make every field texture, both pairs, and the twin set's, as
	// soon as the size is known, and have the driver allocate them at
	// once (a card: gpuView.gather). NVIDIA's driver allocates a texture
	// at its first write, 65-90 ms for a 4096² field on an H200: three of
	// them in a frame when the 3D view first needed its own set while the
	// engine streamed. Made with the 2D view's set they cost that frame
	// only, the one that uploads the new size's first band.
	early bool
	twin  *fieldSet
}

// stageRing is the staging textures the bands of a field set go up
// through on a card (fieldSet.staged): each band of the three fields is
// written into the next texture of the ring, a field's rows under the
// other's, and drawn from there into the fields. A staging texture is
// written again stageDepth bands later, frames after the copy that last
// read it.
type stageRing struct {
	ims  []*ebiten.Image
	next int
}

// stageDepth is the ring's length: four bands, four frames of a view's
// uploads (two when the split view's 3D side loads the 2D side's set
// too), 64 MB a set at 16 MB a band.
const stageDepth = 4

// make (re)makes the ring for bands of w-wide rows, h rows a texture,
// unless it has them, and has the driver allocate its textures now
// (touched through sink).
func (r *stageRing) make(w, h int, sink *ebiten.Image) {
	if len(r.ims) > 0 && r.ims[0].Bounds().Dx() == w && r.ims[0].Bounds().Dy() >= h {
		return
	}
	r.free()
	for range stageDepth {
		im := newDataImage(w, h)
		touch(im, sink)
		r.ims = append(r.ims, im)
	}
}

// free deallocates the ring's textures.
func (r *stageRing) free() {
	for _, im := range r.ims {
		im.Deallocate()
	}
	r.ims, r.next = r.ims[:0], 0
}

// take returns the ring's next staging texture.
func (r *stageRing) take() *ebiten.Image {
	im := r.ims[r.next]
	r.next = (r.next + 1) % len(r.ims)
	return im
}

// stageRows returns the rows of a staging texture for bands of budget
// bytes of w-wide rows: a band of the three fields, one under the other.
func stageRows(w, budget int) int { return max(budget/(4*w), 3) }

// uploadBudget is how many bytes of fields a frame uploads for a new
// snapshot alone (gpuView.loadBand, both views' sets together), on a
// software rasterizer; cardUploadBudget on a card. A 4096² snapshot's
// three fields, 192 MB, took one frame of 160-400 ms on an H200 at once;
// in bands each frame's part is milliseconds: on an H200 about 0.75 ms
// of CPU a MB (Ebitengine's copy of the pixels, then the driver's), so
// a frame of 16 MB took 20-24 ms and the split view's two sets (32 MB)
// 33-38 ms; 8 MB keeps a frame near 16 ms (session 19). Ebitengine holds an image's
// written pixels until the image is next drawn from or into, so each band
// is drawn from once (a pixel into fieldSet.sink, or the copy out of the
// staging texture) to send it in its own frame: without that the bands of
// a snapshot went up together in the frame that first drew from them
// (session 17, docs/GPU.md). (A variable: the tests upload in smaller
// bands.)
var uploadBudget = 16 << 20

const cardUploadBudget = 8 << 20

type bytesKey struct {
	snap   *engine.Snapshot
	uplift *float32
	ov     viewer.Overlay
	rock   bool
	up3    bool
}

type riversKey struct {
	snap          *engine.Snapshot
	thr, maxW     float64
	lakes         bool
	lo, inv       float32
	rivers, drain bool
	step          int
}

// gpuView holds the shaders, the fields and the pictures.
type gpuView struct {
	err    error // a shader failed: the views are drawn on the CPU
	surf   map[surfKey]*ebiten.Shader
	drain  *ebiten.Shader // rivers.kage
	discSh *ebiten.Shader // discs.kage
	// gather: the river discs are gathered (gather.kage) rather than
	// drawn as a quad each (discs.kage). On a card the quads' vertices
	// are the cost (at 4096² a million discs, 200 MB a picture); on a
	// software rasterizer the gather's reads at every pixel are (50 times
	// the quads at 1024² on llvmpipe), so it is set only where the
	// OpenGL device is a card (App.probeViews).
	gather            bool
	gathers           map[int]*ebiten.Shader // gather.kage's programs, by loop size
	budget            int                    // bytes of fields a frame uploads (0: uploadBudget)
	upLeft            int                    // bytes this frame may still upload (newFrame)
	sent, passed      bool                   // a band went up, a pass was drawn this frame (loadBand)
	mesh              *ebiten.Shader
	sky               *ebiten.Shader
	f2, f3            fieldSet // the 2D view's snapshot and the 3D view's (the amplified window's)
	relief            *ebiten.Image
	reliefK           reliefKey
	surf3             *ebiten.Image
	surf3K            surf3Key
	surf3b            *ebiten.Image // the 3D surface being drawn by tjob, swapped in once whole
	tjob              *terrainJob   // a 3D picture drawn over several frames (nil: none)
	draws             int           // whole pictures drawn, for the report
	passes            int           // surface passes drawn (a band of a picture counts), for the tests
	back              *ebiten.Image // the 2D relief being drawn by job, shown once whole
	job               *reliefJob    // a 2D relief drawn over several frames (nil: none)
	rivL              *ebiten.Image // the river image of a zoomed-out relief
	rivLOf            riversKey
	rivLRow           int           // rows of rivL drawn for rivLOf, from the top
	warmed            warmKey       // the sizes and options warm compiled for
	warmSink, warmSrc *ebiten.Image // 1×1: warm's draws
	lut               *ebiten.Image // the ramps alone, image 3 of a picture that reads no bytes
	lutK              lutKey
	lutBuf            []byte
	discs             []viewer.Disc
	discsOf           discsKey      // what g.discs were computed for
	spare             []viewer.Disc // a discs buffer for the next job's goroutine
	vs                []ebiten.Vertex
	is                []uint16
}

// discsKey is what a list of river discs was computed from.
type discsKey struct {
	snap      *engine.Snapshot
	thr, maxW float64
	lakes     bool
}

type reliefKey struct {
	snap   *engine.Snapshot
	opts   viewer.Options
	uplift *float32
	step   int
}

type surf3Key struct {
	snap   *engine.Snapshot
	opts   viewer.Options3D
	uplift *float32
}

func newGPUView() *gpuView {
	g := &gpuView{surf: map[surfKey]*ebiten.Shader{}, gathers: map[int]*ebiten.Shader{}}
	var err error
	if g.drain, err = ebiten.NewShader([]byte(riversKage)); err != nil {
		g.err = fmt.Errorf("drainage shader: %w", err)
		return g
	}
	if g.discSh, err = ebiten.NewShader([]byte(discsKage)); err != nil {
		g.err = fmt.Errorf("river discs shader: %w", err)
		return g
	}
	if g.mesh, err = ebiten.NewShader([]byte(meshKage)); err != nil {
		g.err = fmt.Errorf("mesh shader: %w", err)
		return g
	}
	if g.sky, err = ebiten.NewShader([]byte(skyKage)); err != nil {
		g.err = fmt.Errorf("sky shader: %w", err)
		return g
	}
	if _, err := g.surface(surfKey{rivers: 1, lakes: 1}); err != nil {
		g.err = err
	}
	return g
}

// surfKey is the constants of one surface program (surface.kage).
type surfKey struct {
	mode, ovKind, rivers, lakes, rock, shadows, upTint int
}

// source returns the program's source.
func (k surfKey) source() string {
	r := strings.NewReplacer(
		"Mode = MODE", "Mode = "+strconv.Itoa(k.mode),
		"OvKind = OVKIND", "OvKind = "+strconv.Itoa(k.ovKind),
		"Rivers = RIVERS", "Rivers = "+strconv.Itoa(k.rivers),
		"Lakes = LAKES", "Lakes = "+strconv.Itoa(k.lakes),
		"Rock = ROCK", "Rock = "+strconv.Itoa(k.rock),
		"Shadows = SHADOWS", "Shadows = "+strconv.Itoa(k.shadows),
		"UpTint = UPTINT", "UpTint = "+strconv.Itoa(k.upTint))
	return r.Replace(surfaceKage)
}

// surfKeyOf returns the surface program's constants for p in mode (0: the
// 2D relief, 1: the 3D surface).
func surfKeyOf(p *viewer.SurfaceParams, mode int) surfKey {
	ovKind := p.OvKind
	if mode == 1 {
		ovKind = 0
		if p.Slope3D {
			ovKind = viewer.OvSlope
		}
	}
	return surfKey{mode: mode, ovKind: ovKind, rivers: b2i(p.Rivers),
		lakes: b2i(p.Lakes), rock: b2i(p.Rock && len(p.RockPal) > 0), shadows: b2i(p.Shadows), upTint: b2i(p.UpAlpha > 0)}
}

// warmKey is what warm compiled for.
type warmKey struct {
	w, h, step int
	o          viewer.Options
	o3         viewer.Options3D
}

// warm compiles the programs both views would draw s with (the 2D relief
// at step, the 3D surface and their river gathers), where they are not
// yet, for s's size and these options once. The driver compiles a program
// at its first use, in that frame: on an H200 the 3D view's first frame
// took 174 ms, 85 of them one surface program's compile.
func (g *gpuView) warm(s *engine.Snapshot, o viewer.Options, o3 viewer.Options3D, step int) error {
	k := warmKey{w: s.W, h: s.H, step: step, o: o, o3: o3}
	if g.warmed == k {
		return nil
	}
	g.warmed = k
	p2, p3 := viewer.ReliefParams(s, o), viewer.Surface3DParams(s, o3)
	progs := []*ebiten.Shader{g.mesh, g.sky}
	for _, c := range []struct {
		p          *viewer.SurfaceParams
		mode, step int
	}{{&p2, 0, step}, {&p3, 1, 1}} {
		sh, err := g.surface(surfKeyOf(c.p, c.mode))
		if err != nil {
			return err
		}
		progs = append(progs, sh)
		if c.p.Rivers && g.gather {
			if sh, err = g.gatherShader(c.p, c.step); err != nil {
				return err
			}
			progs = append(progs, sh)
		}
	}
	// Ebitengine hands a program to the driver at its first draw: each
	// draws a pixel into a 1×1 image now.
	if g.warmSink == nil {
		g.warmSink, g.warmSrc = ebiten.NewImage(1, 1), ebiten.NewImage(1, 1)
	}
	vs := []ebiten.Vertex{{DstX: 0, DstY: 0}, {DstX: 1, DstY: 0}, {DstX: 0, DstY: 1}, {DstX: 1, DstY: 1}}
	src := [4]*ebiten.Image{g.warmSrc, g.warmSrc, g.warmSrc, g.warmSrc}
	for _, sh := range progs {
		g.warmSink.DrawTrianglesShader(vs, []uint16{0, 1, 2, 1, 3, 2}, sh, &ebiten.DrawTrianglesShaderOptions{Images: src})
	}
	return nil
}

// surface returns the surface program for k, compiled on first use.
func (g *gpuView) surface(k surfKey) (*ebiten.Shader, error) {
	if s, ok := g.surf[k]; ok {
		return s, nil
	}
	s, err := ebiten.NewShader([]byte(k.source()))
	if err != nil {
		return nil, fmt.Errorf("surface shader: %w", err)
	}
	g.surf[k] = s
	return s, nil
}

// card sets how the fields go up for the device the views draw on: on a
// card (on) every field texture is made as soon as a size is known and
// the bands go through the staging ring; on a software rasterizer
// textures are made when first needed and written straight.
// OROGEN_FIELDS=direct writes them straight on a card too (for A/B).
func (g *gpuView) card(on bool) {
	g.f2.early, g.f3.early, g.f2.twin = on, on, &g.f3
	staged := on && os.Getenv("OROGEN_FIELDS") != "direct"
	g.f2.staged, g.f3.staged = staged, staged
	g.budget = 0
	if on {
		g.budget = cardUploadBudget
	}
	g.f2.band, g.f3.band = g.frameBudget(), g.frameBudget()
}

// frameBudget returns how many bytes of fields a frame uploads for new
// snapshots.
func (g *gpuView) frameBudget() int {
	if g.budget > 0 {
		return g.budget
	}
	return uploadBudget
}

// newFrame starts a frame's upload budget (Update calls it).
func (g *gpuView) newFrame() {
	g.upLeft, g.sent, g.passed = g.frameBudget(), false, false
}

// loadBand uploads the next band of s's fields into f, within what this
// frame may still upload (newFrame: both views' sets share it), and
// reports whether they are all in. A frame that uploads draws no surface
// or river pass, in either view, and one that drew a pass uploads
// nothing (sent, passed): on an H200 the split view's frame that
// uploaded the 3D side's band and drew the 2D side's surface pass took
// 44 ms, its swap waiting (session 19).
func (g *gpuView) loadBand(f *fieldSet, s *engine.Snapshot) bool {
	if f.pick(s) {
		return true
	}
	if g.upLeft < 4*s.W*3 || g.passed {
		return false // less than a row of each field left, or a pass drawn
	}
	done, sent := f.loadSome(s, g.upLeft)
	g.upLeft -= sent
	g.sent = g.sent || sent > 0
	return done
}

// fits reports whether the shaders can draw s.
func (g *gpuView) fits(s *engine.Snapshot) bool {
	return g.err == nil && s != nil && s.W <= gpuMaxSide && s.H <= gpuMaxSide && s.W > 0 && s.H > 0
}

// floatBytes returns v's memory as bytes: four per value, little-endian.
func floatBytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}

// pick makes the pair that holds all of s's fields the front and reports
// whether there is one.
func (f *fieldSet) pick(s *engine.Snapshot) bool {
	if f.holds(s) {
		return true
	}
	if f.back.holds(s) {
		f.fieldTex, f.back = f.back, f.fieldTex
		return true
	}
	return false
}

// loaded reports whether s's fields are all up (in either pair).
func (f *fieldSet) loaded(s *engine.Snapshot) bool { return f.holds(s) || f.back.holds(s) }

// loading reports whether s's fields are going up into the back pair.
func (f *fieldSet) loading(s *engine.Snapshot) bool {
	return s != nil && f.back.snap == s && f.back.rows < s.H
}

// drop forgets which snapshots the textures hold: the next load uploads.
func (f *fieldSet) drop() { f.snap, f.back.snap = nil, nil }

// load makes s's heights, drainage area and lake depths the front, written
// whole into the back pair unless a pair holds them.
func (f *fieldSet) load(s *engine.Snapshot) {
	if f.pick(s) {
		return
	}
	f.size(s)
	b := f.begin(s)
	b.hgt.WritePixels(floatBytes(s.Height))
	f.uploads++
	if b.hasArea {
		b.area.WritePixels(floatBytes(s.Area))
		f.uploads++
	}
	if b.hasWater {
		b.water.WritePixels(floatBytes(s.Water))
		f.uploads++
	}
	b.rows = s.H
	f.pick(s)
}

// begin starts s's fields in the back pair (its textures made as needed)
// and returns it.
func (f *fieldSet) begin(s *engine.Snapshot) *fieldTex {
	b := &f.back
	b.snap, b.rows = s, 0
	b.hasArea, b.hasWater = len(s.Area) == s.W*s.H, len(s.Water) == s.W*s.H
	b.hgt = f.alloc(b.hgt)
	if b.hasArea {
		b.area = f.alloc(b.area)
	}
	if b.hasWater {
		b.water = f.alloc(b.water)
	}
	return b
}

// loadSome uploads the next band of rows of s's fields into the back pair,
// about budget bytes of them (a row of each field at least), and reports
// whether all of s's fields are in (they are then the front) and how many
// bytes it sent: load spread over frames. The front stays what it was
// until then.
func (f *fieldSet) loadSome(s *engine.Snapshot, budget int) (done bool, sent int) {
	if f.pick(s) {
		return true, 0
	}
	if !f.loading(s) {
		f.size(s)
		f.begin(s)
	}
	b := &f.back
	fields := 1 + b2i(b.hasArea) + b2i(b.hasWater)
	y0 := b.rows
	y1 := min(s.H, y0+max(budget/(4*s.W*fields), 1))
	if f.sink == nil {
		f.sink = newDataImage(1, 1)
	}
	var st *ebiten.Image
	if f.staged {
		f.stage.make(s.W, stageRows(s.W, budget), f.sink)
		st = f.stage.take()
	}
	n, k := y1-y0, 0
	rows := func(im *ebiten.Image, v []float32) {
		px := floatBytes(v[y0*s.W : y1*s.W])
		f.uploads++
		if st == nil {
			im.SubImage(image.Rect(0, y0, s.W, y1)).(*ebiten.Image).WritePixels(px)
			f.sink.DrawImage(im.SubImage(image.Rect(0, y0, 1, y0+1)).(*ebiten.Image), nil)
			return
		}
		st.SubImage(image.Rect(0, k*n, s.W, (k+1)*n)).(*ebiten.Image).WritePixels(px)
		copyRows(im, y0, st, k*n, s.W, n)
		k++
	}
	rows(b.hgt, s.Height)
	if b.hasArea {
		rows(b.area, s.Area)
	}
	if b.hasWater {
		rows(b.water, s.Water)
	}
	sent = 4 * s.W * n * fields
	if b.rows = y1; y1 < s.H {
		return false, sent
	}
	f.pick(s)
	return true, sent
}

// copyRows copies n rows of w texels from src (from its row sy) into dst
// (from its row dy), byte for byte, on the GPU.
func copyRows(dst *ebiten.Image, dy int, src *ebiten.Image, sy, w, n int) {
	x, t, b, st, sb := float32(w), float32(dy), float32(dy+n), float32(sy), float32(sy+n)
	vs := []ebiten.Vertex{
		{DstX: 0, DstY: t, SrcX: 0, SrcY: st, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: x, DstY: t, SrcX: x, SrcY: st, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: 0, DstY: b, SrcX: 0, SrcY: sb, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: x, DstY: b, SrcX: x, SrcY: sb, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
	}
	dst.DrawTrianglesShader(vs, []uint16{0, 1, 2, 1, 3, 2}, copyShader(), &ebiten.DrawTrianglesShaderOptions{
		Images: [4]*ebiten.Image{src}, Blend: ebiten.BlendCopy})
}

var copySh *ebiten.Shader

// copyShader returns copy.kage, compiled on first use (it cannot fail: a
// texel returned as read).
func copyShader() *ebiten.Shader {
	if copySh == nil {
		sh, err := ebiten.NewShader([]byte(copyKage))
		if err != nil {
			panic("ui: copy shader: " + err.Error())
		}
		copySh = sh
	}
	return copySh
}

// size makes the field images s's size, dropping the old ones (and what
// was made from them) when it changed.
func (f *fieldSet) size(s *engine.Snapshot) {
	if f.w == s.W && f.h == s.H && f.zero != nil {
		return
	}
	for _, im := range []*ebiten.Image{f.hgt, f.area, f.water, f.back.hgt, f.back.area, f.back.water, f.zero, f.bytes, f.rivers} {
		if im != nil {
			im.Deallocate()
		}
	}
	f.stage.free()
	f.w, f.h = s.W, s.H
	// The stand-in of absent fields now, the fields when first loaded,
	// the others when first needed (64 MB each at 4096²).
	f.fieldTex, f.back = fieldTex{}, fieldTex{}
	f.zero = newDataImage(s.W, s.H)
	f.bytes, f.rivers = nil, nil
	f.bytesOf, f.riversOf, f.bytesLUT = bytesKey{}, riversKey{}, lutKey{}
	if !f.early {
		return
	}
	if f.sink == nil {
		f.sink = newDataImage(1, 1)
	}
	touch(f.zero, f.sink)
	for _, t := range []*fieldTex{&f.fieldTex, &f.back} {
		t.hgt, t.area, t.water = newDataImage(s.W, s.H), newDataImage(s.W, s.H), newDataImage(s.W, s.H)
		for _, im := range []*ebiten.Image{t.hgt, t.area, t.water} {
			touch(im, f.sink)
		}
	}
	if f.staged {
		f.stage.make(s.W, stageRows(s.W, f.band), f.sink)
	}
	if f.twin != nil {
		f.twin.size(s)
	}
}

// touch writes im's first row (zeros) and draws from it into sink, so the
// driver allocates the texture now.
func touch(im, sink *ebiten.Image) {
	w := im.Bounds().Dx()
	im.SubImage(image.Rect(0, 0, w, 1)).(*ebiten.Image).WritePixels(make([]byte, 4*w))
	sink.DrawImage(im.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image), nil)
}

// alloc returns im, or a new image of the fields' size when it is nil.
func (f *fieldSet) alloc(im *ebiten.Image) *ebiten.Image {
	if im == nil {
		im = newDataImage(f.w, f.h)
	}
	return im
}

func (f *fieldSet) areaImg() *ebiten.Image {
	if f.hasArea {
		return f.area
	}
	return f.zero
}

func (f *fieldSet) waterImg() *ebiten.Image {
	if f.hasWater {
		return f.water
	}
	return f.zero
}

// loadBytes fills the bytes texture for s (its uplift replaced by the
// document's when the job has one), when p reads it.
func (f *fieldSet) loadBytes(s *engine.Snapshot, key bytesKey, o viewer.Options, o3 *viewer.Options3D) *ebiten.Image {
	if f.bytesOf == key {
		return f.bytes
	}
	f.buf = viewer.SurfaceBytes(f.buf, s, o, o3)
	if f.bytes == nil {
		// The cells, and lutRows rows of ramps below them.
		f.bytes = newDataImage(max(f.w, lutWidth), f.h+lutRows)
	}
	f.bytes.SubImage(image.Rect(0, 0, f.w, f.h)).(*ebiten.Image).WritePixels(f.buf)
	f.uploads++
	f.bytesOf = key
	return f.bytes
}

// riverPass draws the river image for p down to row y1 (a band of the
// picture that reads it needs its rows alone: the surface reads the
// river image at its own pixel): the drainage pass (rivers.kage) when an
// overlay reads it, then the river discs (discs.kage). The rows drawn
// for the same key are kept, so a picture drawn in bands draws each
// band's rivers with it: the gathered discs of a whole 4096² picture
// took 36 ms on an H200, a frame's worth and more at the swap.
//
// At step 1 it is the fields' river image, a pixel a cell; at a coarser
// step (the 2D relief zoomed out) an image of the output's size in
// g.rivL, a pixel per step × step cells.
func (g *gpuView) riverPass(f *fieldSet, s *engine.Snapshot, p *viewer.SurfaceParams, step, y1 int) (*ebiten.Image, error) {
	drain := p.OvKind == viewer.OvDrainage || p.OvKind == viewer.OvStreams
	k := riversKey{snap: f.snap, thr: p.RiverThresholdM2, maxW: p.RiverMaxPx, lakes: p.Lakes, lo: p.DrainLo, inv: p.DrainInv,
		rivers: p.Rivers, drain: drain, step: step}
	f.rivers = f.alloc(f.rivers)
	dst, of, rows := f.rivers, &f.riversOf, &f.riversRows
	if step > 1 {
		ow, oh := ceilDiv(f.w, step), ceilDiv(f.h, step)
		if g.rivL == nil || g.rivL.Bounds().Dx() != ow || g.rivL.Bounds().Dy() != oh {
			if g.rivL != nil {
				g.rivL.Deallocate()
			}
			g.rivL, g.rivLOf = newDataImage(ow, oh), riversKey{}
		}
		dst, of, rows = g.rivL, &g.rivLOf, &g.rivLRow
	}
	if *of != k {
		*of, *rows = k, 0
	}
	h := dst.Bounds().Dy()
	y1 = min(y1, h)
	if p.Rivers && !g.gather {
		y1 = h // the quads are drawn at once
	}
	y0 := *rows
	if y0 >= y1 {
		return dst, nil
	}
	if drain {
		drawScaled(dst, step, y0, y1, g.drain, [4]*ebiten.Image{f.areaImg()}, map[string]any{
			"Thr": float32(p.RiverThresholdM2), "OvLo": p.DrainLo, "OvScale": p.DrainInv,
		}, ebiten.BlendCopy)
	} else {
		dst.SubImage(image.Rect(0, y0, dst.Bounds().Dx(), y1)).(*ebiten.Image).Clear()
	}
	if p.Rivers && g.gather {
		if err := g.gatherDiscs(dst, f, p, step, y0, y1); err != nil {
			*of = riversKey{}
			return nil, err
		}
	} else if p.Rivers {
		if dk := (discsKey{snap: f.snap, thr: p.RiverThresholdM2, maxW: p.RiverMaxPx, lakes: p.Lakes}); g.discsOf != dk {
			g.discs = viewer.RiverDiscs(g.discs, s, p.RiverThresholdM2, p.RiverMaxPx, p.Lakes)
			g.discsOf = dk
		}
		g.drawDiscs(dst, viewer.RiverReach(p.RiverMaxPx), step)
	}
	*rows = y1
	return dst, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// drawScaled draws shader sh over rows y0 to y1 (excluded) of dst, the
// full width, each pixel reading the source images (the fields' size) at
// step × its position. A pixel's value does not depend on the rows drawn
// with it: a picture drawn in bands is the picture drawn at once.
func drawScaled(dst *ebiten.Image, step, y0, y1 int, sh *ebiten.Shader, imgs [4]*ebiten.Image, u map[string]any, blend ebiten.Blend) {
	w, t, b := float32(dst.Bounds().Dx()), float32(y0), float32(y1)
	k := float32(step)
	vs := []ebiten.Vertex{
		{DstX: 0, DstY: t, SrcX: 0, SrcY: t * k, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: w, DstY: t, SrcX: w * k, SrcY: t * k, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: 0, DstY: b, SrcX: 0, SrcY: b * k, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: w, DstY: b, SrcX: w * k, SrcY: b * k, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
	}
	dst.DrawTrianglesShader(vs, []uint16{0, 1, 2, 1, 3, 2}, sh, &ebiten.DrawTrianglesShaderOptions{Images: imgs, Uniforms: u, Blend: blend})
}

// maxBlend keeps the largest value of every channel.
var maxBlend = ebiten.Blend{
	BlendFactorSourceRGB: ebiten.BlendFactorOne, BlendFactorSourceAlpha: ebiten.BlendFactorOne,
	BlendFactorDestinationRGB: ebiten.BlendFactorOne, BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
	BlendOperationRGB: ebiten.BlendOperationMax, BlendOperationAlpha: ebiten.BlendOperationMax,
}

// gatherShader returns the gather program for p's widest river at step
// cells a pixel (its loop's side), compiled on first use.
func (g *gpuView) gatherShader(p *viewer.SurfaceParams, step int) (*ebiten.Shader, error) {
	k := float64(step)
	n := 2 * viewer.RiverReach(p.RiverMaxPx)
	if step > 1 {
		n = int(math.Ceil(2*max((p.RiverMaxPx/2+0.5)/k, 0.75)*k)) + 1
	}
	if sh, ok := g.gathers[n]; ok {
		return sh, nil
	}
	sh, err := ebiten.NewShader([]byte(strings.Replace(gatherKage, "N = LOOPN", "N = "+strconv.Itoa(n), 1)))
	if err != nil {
		return nil, fmt.Errorf("river discs shader: %w", err)
	}
	g.gathers[n] = sh
	return sh, nil
}

// gatherDiscs draws the river discs of f's fields into dst (the river
// image at step cells a pixel) by gathering (gather.kage): every pixel
// visits the cells whose disc may reach it, so no vertex or list of discs
// is made on the CPU. The picture is drawDiscs'.
func (g *gpuView) gatherDiscs(dst *ebiten.Image, f *fieldSet, p *viewer.SurfaceParams, step, y0, y1 int) error {
	reach := viewer.RiverReach(p.RiverMaxPx)
	sh, err := g.gatherShader(p, step)
	if err != nil {
		return err
	}
	thr := float32(p.RiverThresholdM2)
	if float64(thr) < p.RiverThresholdM2 {
		thr = math.Nextafter32(thr, float32(math.Inf(1)))
	}
	drawScaled(dst, step, y0, y1, sh, [4]*ebiten.Image{f.areaImg(), f.waterImg()}, map[string]any{
		"Size": []float32{float32(f.w), float32(f.h)}, "Step": float32(step), "Thr": thr,
		"LogThr": float32(math.Log10(p.RiverThresholdM2)), "MaxW": float32(p.RiverMaxPx), "Reach": float32(reach),
		"PerDecade": float32(viewer.RiverPxPerDecade), "Decades": float32(viewer.RiverDecadesToDeep),
		"Lakes": float32(b2i(p.Lakes && f.hasWater)),
	}, maxBlend)
	return nil
}

// drawDiscs draws g.discs into dst, a quad each over the cells it may
// reach, with the maximum as blend.
//
// At a coarser step a disc shrinks by the step, to no less than 0.75 px
// (a river stays visible on the zoomed-out map).
func (g *gpuView) drawDiscs(dst *ebiten.Image, reach, step int) {
	const perDraw = 16383 // quads whose vertices fit 16-bit indices
	op := &ebiten.DrawTrianglesShaderOptions{Blend: maxBlend}
	for k0 := 0; k0 < len(g.discs); k0 += perDraw {
		ds := g.discs[k0:min(k0+perDraw, len(g.discs))]
		g.vs, g.is = g.vs[:0], g.is[:0]
		for q, d := range ds {
			span := float32(min(reach, int(d.Rho)))
			x, y := float32(d.X), float32(d.Y)
			x0, y0, x1, y1 := x-span, y-span, x+span+1, y+span+1
			cx, cy, rho := x+0.5, y+0.5, d.Rho
			if step > 1 {
				k := float32(step)
				cx, cy, rho = cx/k, cy/k, max(rho/k, 0.75)
				x0, y0, x1, y1 = cx-rho-1, cy-rho-1, cx+rho+1, cy+rho+1
			}
			for _, c := range [4][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
				g.vs = append(g.vs, ebiten.Vertex{DstX: c[0], DstY: c[1], SrcX: c[0], SrcY: c[1], ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1,
					Custom0: cx, Custom1: cy, Custom2: rho, Custom3: d.T})
			}
			b := uint16(4 * q)
			g.is = append(g.is, b, b+1, b+2, b+1, b+3, b+2)
		}
		dst.DrawTrianglesShader(g.vs, g.is, g.discSh, op)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The ramps a surface picture reads (surface.kage's lutAt): rows of image
// 3 below its cells (or an image of their own), each a ramp sampled at
// lutSizes entries by viewer.Ramp.Bytes: 0 the height tint, 1 the 3D
// view's base ramp when it colours by slope, 2 the 2D overlay's ramp, 3
// the 3D uplift tint. A texel read replaces the ramp's evaluation at every
// pixel, which took about a third of a 1024² relief on llvmpipe.
const (
	lutRows  = 4
	lutWidth = 1024
)

var lutSizes = [lutRows]int{lutWidth, 256, 256, 256}

// lutKey is the ramps an image's rows hold.
type lutKey [lutRows]viewer.Ramp

// rampRows returns the ramps a picture of p in mode reads, by row, and
// which rows it reads.
func rampRows(p *viewer.SurfaceParams, mode int) (rows lutKey, need [lutRows]bool) {
	if mode == 0 {
		rows[0], need[0] = p.Base, true
		if p.OvKind == viewer.OvIndex || p.OvKind == viewer.OvDrainage || p.OvKind == viewer.OvSlope {
			rows[2], need[2] = p.Ov, true
		}
		return rows, need
	}
	if p.Slope3D {
		rows[1], need[1] = p.Base, true
	} else {
		rows[0], need[0] = p.Base, true
	}
	if p.UpAlpha > 0 {
		rows[3], need[3] = p.Up, true
	}
	return rows, need
}

// writeRamps writes the rows of p's ramps that img (its rows from y0)
// does not hold yet; have is what it holds.
func (g *gpuView) writeRamps(img *ebiten.Image, y0 int, have *lutKey, p *viewer.SurfaceParams, mode int) {
	rows, need := rampRows(p, mode)
	for k := range rows {
		if !need[k] || have[k] == rows[k] {
			continue
		}
		g.lutBuf = rows[k].Bytes(g.lutBuf, lutSizes[k])
		img.SubImage(image.Rect(0, y0+k, lutSizes[k], y0+k+1)).(*ebiten.Image).WritePixels(g.lutBuf)
		have[k] = rows[k]
	}
}

// drawSurface draws the surface shader for p into rows y0 to y1
// (excluded) of dst.
//
// dst is the fields' size divided by step (rounded up): each pixel shows
// the centre cell of its step × step block.
func (g *gpuView) drawSurface(dst *ebiten.Image, f *fieldSet, s *engine.Snapshot, p *viewer.SurfaceParams, mode int, bytes *ebiten.Image, step, y0, y1 int) error {
	sh, err := g.surface(surfKeyOf(p, mode))
	if err != nil {
		return err
	}
	riv := f.zero
	if p.Rivers || p.OvKind == viewer.OvDrainage || p.OvKind == viewer.OvStreams {
		if riv, err = g.riverPass(f, s, p, step, y1); err != nil {
			return err
		}
	}
	// Image 3: the bytes with the ramps below the cells, or the ramps
	// alone.
	lutY := f.h
	if bytes == nil {
		if g.lut == nil {
			g.lut = newDataImage(lutWidth, lutRows)
		}
		bytes, lutY = g.lut, 0
		g.writeRamps(g.lut, 0, &g.lutK, p, mode)
	} else {
		g.writeRamps(bytes, f.h, &f.bytesLUT, p, mode)
	}
	pal := make([]float32, 96) // the uniform's whole length
	for i, c := range p.RockPal[:min(len(p.RockPal), 32)] {
		copy(pal[3*i:], c[:])
	}
	drawScaled(dst, step, y0, y1, sh, [4]*ebiten.Image{f.hgt, riv, f.waterImg(), bytes},
		map[string]any{
			"Size": []float32{float32(f.w), float32(f.h)}, "Step": float32(step),
			"Light": p.Light[:], "Ambient": p.Ambient, "Ex": p.Ex, "Cell": p.Cell,
			"TintLo": p.TintLo, "TintScale": p.TintScale, "LutY": float32(lutY),
			"OvColour": p.OvColour[:], "OvAlpha": p.OvAlpha, "OvScale": p.OvScale,
			"UpAlpha": p.UpAlpha,
			"RockN":   min(len(p.RockPal), 32), "RockPal": pal,
			"River": p.River[:], "RiverLight": p.RiverLight[:], "Shallow": p.Shallow[:], "Deep": p.Deep[:],
			"SunStep": p.SunStep[:], "SunDrop": p.SunDrop * p.Ex,
		}, ebiten.BlendCopy)
	g.passes++
	return nil
}

// withUplift returns s with its uplift replaced by up (nil: s itself).
func withUplift(s *engine.Snapshot, up []float32) *engine.Snapshot {
	if up == nil {
		return s
	}
	c := *s
	c.Uplift = up
	return &c
}

func firstOf(v []float32) *float32 {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// reliefImage returns the 2D relief of s (uplift, when not nil, in place
// of its own) drawn by the shaders, redrawn only when s, o or the uplift
// changed; o3 is the 3D view's options when it shows too (the bytes
// texture serves both).
//
// step (a power of 2) is how many cells a pixel of the picture spans per
// side: 1 is a pixel a cell; a map zoomed out far is drawn coarser (a mip
// level), step² times fewer pixels.
func (g *gpuView) reliefImage(s *engine.Snapshot, up []float32, o viewer.Options, o3 *viewer.Options3D, step int) (*ebiten.Image, error) {
	if s.Arcs != nil {
		o.Rivers = false // the arc layer draws them at screen resolution
	}
	step = max(step, 1)
	k := reliefKey{snap: s, opts: o, uplift: firstOf(up), step: step}
	if g.relief != nil && g.reliefK == k {
		return g.relief, nil
	}
	g.job = nil // a picture being drawn over frames is superseded
	su := withUplift(s, up)
	p := viewer.ReliefParams(su, o)
	if len(p.RockPal) > 32 {
		return nil, fmt.Errorf("%d rock layers: the shaders take 32", len(p.RockPal))
	}
	g.f2.load(s)
	bytes := g.reliefBytes(s, su, up, o, o3, &p)
	g.relief = sized(g.relief, ceilDiv(s.W, step), ceilDiv(s.H, step))
	if err := g.drawSurface(g.relief, &g.f2, su, &p, 0, bytes, step, 0, g.relief.Bounds().Dy()); err != nil {
		return nil, err
	}
	g.draws++
	g.reliefK = k
	return g.relief, nil
}

// reliefBytes returns the bytes texture of the 2D relief of s (su: with
// the uplift it shows) when p or the 3D view's options o3 read it, else
// nil.
func (g *gpuView) reliefBytes(s, su *engine.Snapshot, up []float32, o viewer.Options, o3 *viewer.Options3D, p *viewer.SurfaceParams) *ebiten.Image {
	if !p.NeedBytes && (o3 == nil || o3.UpliftAlpha <= 0) {
		return nil
	}
	bk := bytesKey{snap: s, uplift: firstOf(up), ov: o.Overlay, rock: o.Rock, up3: o3 != nil && o3.UpliftAlpha > 0}
	if p.OvAlpha == 0 {
		bk.ov = viewer.OverlayNone
	}
	return g.f2.loadBytes(su, bk, o, o3)
}

// sized returns im when it is w×h, else a new image of that size (im
// deallocated).
func sized(im *ebiten.Image, w, h int) *ebiten.Image {
	if im != nil && im.Bounds().Dx() == w && im.Bounds().Dy() == h {
		return im
	}
	if im != nil {
		im.Deallocate()
	}
	return newDataImage(w, h)
}

// reliefJob is a redraw of the 2D relief for a new snapshot alone, spread
// over frames so that no frame carries the whole picture (on Mesa's
// llvmpipe a 1024² relief is about 85 ms of CPU, several plain frames):
// the first frame uploads the fields and hands the CPU's part (the
// relief's figures, viewer.ReliefParams, and the river discs,
// viewer.RiverDiscs) to a goroutine, which reads only the immutable
// snapshot and the uplift copy; the frame that finds them draws the river
// pass; each following frame draws a band of rows into g.back, and the
// last swaps g.back and g.relief. The old picture shows until then.
type reliefJob struct {
	k    reliefKey
	su   *engine.Snapshot // k.snap with the uplift the picture shows
	up   []float32
	o    viewer.Options
	o3   *viewer.Options3D
	prep chan reliefPrep // the goroutine's result, buffered: a dropped job leaks nothing
	p    *viewer.SurfaceParams
	rows int // rows of the picture per band
	row  int // the next row to draw
}

// reliefPrep is the CPU's part of a relief, made off the UI thread.
type reliefPrep struct {
	p     viewer.SurfaceParams
	discs []viewer.Disc
	dk    discsKey
}

// startRelief starts drawing the 2D relief of s over frames (as
// reliefImage would draw it at once); bands is how many bands the
// picture's rows are split into. It uploads s's fields now.
func (g *gpuView) startRelief(s *engine.Snapshot, up []float32, o viewer.Options, o3 *viewer.Options3D, step, bands int) {
	if s.Arcs != nil {
		o.Rivers = false
	}
	step = max(step, 1)
	j := &reliefJob{k: reliefKey{snap: s, opts: o, uplift: firstOf(up), step: step}, su: withUplift(s, up), up: up, o: o,
		prep: make(chan reliefPrep, 1)}
	if o3 != nil {
		c := *o3
		j.o3 = &c
	}
	oh := ceilDiv(s.H, step)
	j.rows = ceilDiv(oh, max(bands, 1))
	g.loadBand(&g.f2, s)
	buf := g.spare
	g.spare = nil
	su, gather := j.su, g.gather
	go func() {
		p := viewer.ReliefParams(su, o)
		r := reliefPrep{p: p}
		if p.Rivers && !gather {
			r.dk = discsKey{snap: s, thr: p.RiverThresholdM2, maxW: p.RiverMaxPx, lakes: p.Lakes}
			r.discs = viewer.RiverDiscs(buf[:0], s, p.RiverThresholdM2, p.RiverMaxPx, p.Lakes)
		}
		j.prep <- r
	}()
	g.job = j
}

// advanceRelief does this frame's part of the job: nothing while the
// goroutine works, then the river pass, then one band. It reports
// whether it drew anything and whether the picture is whole (g.relief is
// then the job's, and g.job nil).
func (g *gpuView) advanceRelief() (drew, done bool, err error) {
	j := g.job
	s := j.k.snap
	if !g.f2.loaded(s) {
		// A band of the fields, alone in its frame: on an H200 an 8 MB
		// band and a surface pass in one frame took 25 ms (session 19).
		g.loadBand(&g.f2, s)
		return true, false, nil
	}
	if g.sent {
		return false, false, nil // the other view's band went up this frame
	}
	if j.p == nil {
		var r reliefPrep
		select {
		case r = <-j.prep:
		default:
			return false, false, nil
		}
		if len(r.p.RockPal) > 32 {
			g.job = nil
			return false, false, fmt.Errorf("%d rock layers: the shaders take 32", len(r.p.RockPal))
		}
		j.p = &r.p
		if r.p.Rivers {
			g.spare, g.discs, g.discsOf = g.discs[:0], r.discs, r.dk
		} else {
			g.spare = r.discs
		}
		g.f2.load(s) // a no-op unless the 3D view used the fields
		g.reliefBytes(s, j.su, j.up, j.o, j.o3, j.p)
		if j.p.Rivers || j.p.OvKind == viewer.OvDrainage || j.p.OvKind == viewer.OvStreams {
			g.passed = true
			if _, err := g.riverPass(&g.f2, j.su, j.p, j.k.step, j.rows); err != nil {
				g.job = nil
				return true, false, err
			}
			return true, false, nil
		}
	}
	g.f2.load(s)
	bytes := g.reliefBytes(s, j.su, j.up, j.o, j.o3, j.p)
	g.back = sized(g.back, ceilDiv(s.W, j.k.step), ceilDiv(s.H, j.k.step))
	oh := g.back.Bounds().Dy()
	y1 := min(j.row+j.rows, oh)
	g.passed = true
	if err := g.drawSurface(g.back, &g.f2, j.su, j.p, 0, bytes, j.k.step, j.row, y1); err != nil {
		g.job = nil
		return true, false, err
	}
	if j.row = y1; j.row < oh {
		return true, false, nil
	}
	g.relief, g.back = g.back, g.relief
	g.reliefK, g.job = j.k, nil
	g.draws++
	return true, true, nil
}

// surface3DImage returns the lit surface of the 3D view of s, one pixel a
// cell, redrawn only when s, o or the uplift changed.
func (g *gpuView) surface3DImage(s *engine.Snapshot, up []float32, o viewer.Options3D, o2 viewer.Options) (*ebiten.Image, error) {
	k := surf3Key{snap: s, opts: o, uplift: firstOf(up)}
	if g.surf3 != nil && g.surf3K == k {
		return g.surf3, nil
	}
	g.tjob = nil // a picture being drawn over frames is superseded
	su := withUplift(s, up)
	p := viewer.Surface3DParams(su, o)
	if len(p.RockPal) > 32 {
		return nil, fmt.Errorf("%d rock layers: the shaders take 32", len(p.RockPal))
	}
	g.surf3 = sized(g.surf3, s.W, s.H)
	if err := g.surface3DRows(g.surf3, s, su, up, o, o2, &p, 0, s.H); err != nil {
		return nil, err
	}
	g.draws++
	g.surf3K = k
	return g.surf3, nil
}

// fieldsOf returns the fields the 3D view draws s from: the 2D view's
// when either pair holds s (or s is going up into it), else its own.
func (g *gpuView) fieldsOf(s *engine.Snapshot) *fieldSet {
	if g.f2.loaded(s) || g.f2.loading(s) {
		return &g.f2
	}
	return &g.f3
}

// surface3DRows draws rows y0 to y1 (excluded) of the 3D surface of s
// (su: with the uplift it shows) into dst, with the fields of the 2D
// view when they are s's, else the 3D view's own.
func (g *gpuView) surface3DRows(dst *ebiten.Image, s, su *engine.Snapshot, up []float32, o viewer.Options3D, o2 viewer.Options, p *viewer.SurfaceParams, y0, y1 int) error {
	f := g.fieldsOf(s)
	f.load(s)
	var bytes *ebiten.Image
	if p.NeedBytes {
		o2.Rock = o.Color == viewer.ColorRock
		bk := bytesKey{snap: s, uplift: firstOf(up), ov: o2.Overlay, rock: o2.Rock, up3: true}
		if o2.OverlayAlpha == 0 {
			bk.ov = viewer.OverlayNone
		}
		if f.bytesOf.snap == s && f.bytesOf.uplift == bk.uplift && f.bytesOf.up3 && (f.bytesOf.rock || !o2.Rock) {
			bytes = f.bytes // the 2D view's bytes carry the 3D view's too
		} else {
			bytes = f.loadBytes(su, bk, o2, &o)
		}
	}
	return g.drawSurface(dst, f, su, p, 1, bytes, 1, y0, y1)
}

// terrainJob is a redraw of the 3D view for a new snapshot alone (the
// same camera, canvas and options), spread over frames as reliefJob
// spreads the relief: bands of the surface's rows into g.surf3b (swapped
// with g.surf3 once whole), then the sky and the draw list's chunks, in
// their back-to-front order, into a second canvas the caller swaps in
// once all are drawn. The old picture shows meanwhile.
type terrainJob struct {
	d     *viewer.DrawList // kept until done; the caller recycles it
	s, su *engine.Snapshot
	up    []float32
	o     viewer.Options3D
	o2    viewer.Options
	p     viewer.SurfaceParams
	k     surf3Key
	rows  int // surface rows per band
	row   int // the next surface row (s.H: the surface is whole)
	per   int // chunks per frame
	chunk int // the next chunk; -1: the sky first
}

// startTerrain starts drawing d, the projected mesh of s, over frames;
// bands is how many frames' bands the surface and the chunks take each.
func (g *gpuView) startTerrain(d *viewer.DrawList, s *engine.Snapshot, up []float32, o viewer.Options3D, o2 viewer.Options, bands int) error {
	bands = max(bands, 1)
	j := &terrainJob{d: d, s: s, su: withUplift(s, up), up: up, o: o, o2: o2, k: surf3Key{snap: s, opts: o, uplift: firstOf(up)},
		rows: ceilDiv(s.H, bands), per: max(ceilDiv(len(d.Chunks), bands), 1), chunk: -1}
	if g.surf3 != nil && g.surf3K == j.k {
		j.row = s.H
	} else {
		j.p = viewer.Surface3DParams(j.su, o)
		if len(j.p.RockPal) > 32 {
			return fmt.Errorf("%d rock layers: the shaders take 32", len(j.p.RockPal))
		}
	}
	g.tjob = j
	return nil
}

// advanceTerrain draws this frame's part of the 3D job into canvas (the
// job's own, not the one shown): a band of the surface, or the sky and
// some chunks. It reports whether the picture is whole (g.tjob is then
// nil; the caller recycles the list it returns).
func (g *gpuView) advanceTerrain(canvas *ebiten.Image) (d *viewer.DrawList, done bool, err error) {
	j := g.tjob
	s := j.s
	if j.row < s.H {
		if f := g.fieldsOf(s); !f.loaded(s) {
			g.loadBand(f, s)
			return nil, false, nil // a band of the fields, alone in its frame (advanceRelief)
		}
		if g.sent {
			return nil, false, nil // the other view's band went up this frame
		}
		g.passed = true
		g.surf3b = sized(g.surf3b, s.W, s.H)
		y1 := min(j.row+j.rows, s.H)
		if err := g.surface3DRows(g.surf3b, s, j.su, j.up, j.o, j.o2, &j.p, j.row, y1); err != nil {
			g.tjob = nil
			return j.d, false, err
		}
		if j.row = y1; j.row == s.H {
			g.surf3, g.surf3b = g.surf3b, g.surf3
			g.surf3K = j.k
		}
		return nil, false, nil
	}
	if j.chunk < 0 {
		g.drawSky(canvas, j.d)
		j.chunk = 0
	}
	end := min(j.chunk+j.per, len(j.d.Chunks))
	g.drawChunks(canvas, j.d, g.surf3, s, j.chunk, end)
	if j.chunk = end; j.chunk < len(j.d.Chunks) {
		return nil, false, nil
	}
	g.tjob = nil
	g.draws++
	return j.d, true, nil
}

// drawTerrain draws a projected draw list of the 3D mesh of s into dst
// (the list's size) over the sky: each vertex reads the surface picture
// at its map position.
func (g *gpuView) drawTerrain(dst *ebiten.Image, d *viewer.DrawList, surf *ebiten.Image, s *engine.Snapshot) {
	g.drawSky(dst, d)
	g.drawChunks(dst, d, surf, s, 0, len(d.Chunks))
}

// drawSky fills dst (the list's size) with the sky of d's camera.
func (g *gpuView) drawSky(dst *ebiten.Image, d *viewer.DrawList) {
	cam := d.Camera
	focal := float64(d.H) / 2 / math.Tan(cam.FovDeg*math.Pi/360)
	horizon := float64(d.H)/2 - focal*math.Tan(cam.Pitch*math.Pi/180)
	sky := viewer.SkyColours()
	dst.DrawRectShader(d.W, d.H, g.sky, &ebiten.DrawRectShaderOptions{
		Blend: ebiten.BlendCopy,
		Uniforms: map[string]any{"Horizon": float32(horizon), "Height": float32(d.H),
			"SkyHorizon": sky[0][:], "SkyZenith": sky[1][:], "SkyBelow": sky[2][:]},
	})
}

// drawChunks draws chunks c0 to c1 (excluded) of d into dst, in order
// (back to front).
func (g *gpuView) drawChunks(dst *ebiten.Image, d *viewer.DrawList, surf *ebiten.Image, s *engine.Snapshot, c0, c1 int) {
	inv := float32(1 / s.Cell)
	op := &ebiten.DrawTrianglesShaderOptions{
		Images:   [4]*ebiten.Image{surf},
		Uniforms: map[string]any{"Size": []float32{float32(s.W), float32(s.H)}},
	}
	for _, c := range d.Chunks[c0:c1] {
		if len(c.Indices) == 0 {
			continue
		}
		for i := range c.Vertices {
			v := &c.Vertices[i]
			v.SrcX, v.SrcY = v.Custom0*inv, v.Custom1*inv
		}
		vs := unsafe.Slice((*ebiten.Vertex)(unsafe.Pointer(unsafe.SliceData(c.Vertices))), len(c.Vertices))
		dst.DrawTrianglesShader(vs, c.Indices, g.mesh, op)
	}
}

// newDataImage returns an image of its own texture: off Ebiten's atlas,
// so a large field or picture is never copied between atlases.
func newDataImage(w, h int) *ebiten.Image {
	return ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
}
