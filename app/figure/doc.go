// Package figure draws the figures of `orogen analyze --plot` in pure Go
// (image/draw, golang.org/x/image/font with the Go fonts), so they render
// without a display: the Hack scatter with its fit and the accepted band,
// the slope–area plot with binned medians and its fit, and the hypsometric
// curve, side by side on one picture.
//
// Axes are in data units; log axes take log10 of the data and are labelled
// at every decade. Points outside an axis range are clipped.
package figure
