package rasterio

import (
	"fmt"
	"html"
	"path/filepath"
	"strconv"
	"strings"
)

// IsRaw reports whether path names a headerless 16-bit file (.r16 or
// .raw), the files a VRT can describe.
func IsRaw(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".r16" || ext == ".raw"
}

// VRTPath returns the GDAL virtual raster written beside a raw 16-bit file
// with Options.VRT: the whole name with ".vrt" appended ("h.r16" →
// "h.r16.vrt").
func VRTPath(path string) string { return path + ".vrt" }

// vrt returns a GDAL VRT (a VRTRawRasterBand) describing the raw
// little-endian uint16 file named base, beside it, as m describes it: its
// size, a geotransform with m's cell size and the north-west corner at
// (0, Height·Cell) as the GeoTIFFs have it (a tile's at its place in the
// whole), and the Offset and Scale that
// map a 16-bit value back to metres (Min + q·(Max-Min)/65535).
func vrt(base string, m *Meta) []byte {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	ox, oy := 0.0, float64(m.Height)*m.CellSize
	if m.Tile != nil {
		ox, oy = m.Tile.origin(m.CellSize)
	}
	dy := -m.CellSize
	if m.SouthUp {
		// Rows from the south: the first row's south edge is the origin
		// row, and y grows down the file.
		oy, dy = oy-float64(m.Height)*m.CellSize, m.CellSize
	}
	return fmt.Appendf(nil, `<VRTDataset rasterXSize="%d" rasterYSize="%d">
  <GeoTransform>%s, %s, 0, %s, 0, %s</GeoTransform>
  <Metadata>
    <MDI key="AREA_OR_POINT">Area</MDI>
  </Metadata>
  <VRTRasterBand dataType="UInt16" band="1" subClass="VRTRawRasterBand">
    <SourceFilename relativeToVRT="1">%s</SourceFilename>
    <ImageOffset>0</ImageOffset>
    <PixelOffset>2</PixelOffset>
    <LineOffset>%d</LineOffset>
    <ByteOrder>LSB</ByteOrder>
    <Offset>%s</Offset>
    <Scale>%s</Scale>
  </VRTRasterBand>
</VRTDataset>
`, m.Width, m.Height, g(ox), g(m.CellSize), g(oy), g(dy),
		html.EscapeString(base), 2*m.Width, g(m.Min), g((m.Max-m.Min)/65535))
}
