package rasterio

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"io"
	"runtime"
	"sync"
)

// The PNG writer. image/png tries all five filters on every row and
// compresses on one core; a 4033² 16-bit heightmap takes seconds that
// way. This writer filters every row with Up (the byte above: terrain
// rows look like their neighbours) and deflates blocks of pngBlockRows
// rows on all cores, each ended with a sync flush so that their
// concatenation is one deflate stream (as pigz does). The block size is
// fixed, so the bytes do not depend on GOMAXPROCS.

// pngBlockRows is how many rows one deflate block holds.
const pngBlockRows = 64

// pngChunk bounds the size of an IDAT chunk.
const pngChunk = 1 << 20

// writePNG writes a w×h PNG of colour type ct (0: gray, 6: RGBA) and bit
// depth 8 or 16, whose unfiltered rows row(y, dst) fills (dst has
// w·channels·depth/8 bytes, samples big-endian).
func writePNGRows(out io.Writer, w, h int, ct, depth byte, row func(y int, dst []byte)) error {
	ch := 1
	if ct == 6 {
		ch = 4
	}
	stride := w * ch * int(depth) / 8
	nb := (h + pngBlockRows - 1) / pngBlockRows
	raw := make([][]byte, nb)  // filtered rows of each block
	comp := make([][]byte, nb) // deflated blocks
	var wg sync.WaitGroup
	next := make(chan int, nb)
	for b := range nb {
		next <- b
	}
	close(next)
	var firstErr error
	var mu sync.Mutex
	for range min(runtime.GOMAXPROCS(0), nb) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := make([]byte, stride)
			cur := make([]byte, stride)
			for b := range next {
				y0, y1 := b*pngBlockRows, min(h, (b+1)*pngBlockRows)
				buf := make([]byte, 0, (y1-y0)*(stride+1))
				if y0 > 0 {
					row(y0-1, prev)
				} else {
					clear(prev)
				}
				for y := y0; y < y1; y++ {
					row(y, cur)
					buf = append(buf, 2) // filter Up
					for i, v := range cur {
						buf = append(buf, v-prev[i])
					}
					prev, cur = cur, prev
				}
				raw[b] = buf
				var cb bytes.Buffer
				fw, _ := flate.NewWriter(&cb, flate.BestSpeed)
				fw.Write(buf)
				var err error
				if b == nb-1 {
					err = fw.Close()
				} else {
					err = fw.Flush()
				}
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
				comp[b] = cb.Bytes()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	ad := adler32.New()
	for _, r := range raw {
		ad.Write(r)
	}
	// The zlib stream: header (deflate, 32 KiB window, fastest), blocks,
	// Adler-32 of the filtered data.
	var z []byte
	z = append(z, 0x78, 0x01)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, ct
	if _, err := out.Write([]byte("\x89PNG\r\n\x1a\n")); err != nil {
		return err
	}
	if err := pngWriteChunk(out, "IHDR", ihdr[:]); err != nil {
		return err
	}
	flush := func(force bool) error {
		for len(z) >= pngChunk || (force && len(z) > 0) {
			n := min(len(z), pngChunk)
			if err := pngWriteChunk(out, "IDAT", z[:n]); err != nil {
				return err
			}
			z = z[n:]
		}
		return nil
	}
	for _, c := range comp {
		z = append(z, c...)
		if err := flush(false); err != nil {
			return err
		}
	}
	z = binary.BigEndian.AppendUint32(z, ad.Sum32())
	if err := flush(true); err != nil {
		return err
	}
	return pngWriteChunk(out, "IEND", nil)
}

// pngWriteChunk writes one PNG chunk with its CRC.
func pngWriteChunk(w io.Writer, typ string, data []byte) error {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(data)))
	copy(hdr[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(hdr[4:])
	crc.Write(data)
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	var c [4]byte
	binary.BigEndian.PutUint32(c[:], crc.Sum32())
	_, err := w.Write(c[:])
	return err
}
