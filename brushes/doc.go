// Package brushes paints uplift on raster layers: brush stamps and strokes.
package brushes
