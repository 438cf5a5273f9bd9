package rasterio

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchmarkWrite times Write of an n×n seeded field to a file of type ext.
func benchmarkWrite(b *testing.B, ext string, n int) {
	f := testField(n, n, 1)
	path := filepath.Join(b.TempDir(), "h"+ext)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := Write(path, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, ext := range []string{".png", ".r16", ".tif", ".obj"} {
		for _, n := range []int{256, 512, 1024, 2048} {
			b.Run(fmt.Sprintf("%s/%d", ext[1:], n), func(b *testing.B) { benchmarkWrite(b, ext, n) })
		}
	}
}

// benchmarkRead times ReadHeights of an n×n file of type ext.
func benchmarkRead(b *testing.B, ext string, n int) {
	path := filepath.Join(b.TempDir(), "h"+ext)
	if err := Write(path, testField(n, n, 1)); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := ReadHeights(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadHeights(b *testing.B) {
	for _, ext := range []string{".png", ".r16", ".tif"} {
		for _, n := range []int{256, 512, 1024, 2048} {
			b.Run(fmt.Sprintf("%s/%d", ext[1:], n), func(b *testing.B) { benchmarkRead(b, ext, n) })
		}
	}
}
