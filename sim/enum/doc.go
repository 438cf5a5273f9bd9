// Package enum names the values of Orogen's small enumerations (edge kinds,
// boundaries, engine kinds, brush kinds and falloffs, overlays) and reads
// them back.
//
// Each enumeration keeps one table of names, a slice or array indexed by
// value, and its String, Parse, MarshalText and the app's lists all read
// that table: nothing keeps a second list of the same names by hand. Names
// are what files and flags spell, so a table's entries never change once
// written.
package enum
