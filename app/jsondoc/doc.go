// Package jsondoc reads the versioned JSON documents Orogen writes, scenes
// and projects, strictly: the document must carry a "version" this Orogen
// reads, every key must be known and nothing may follow the document.
// Errors say where a problem is (the line of a syntax error, the key of a
// value of the wrong type) and start with the document's name ("scene: ").
package jsondoc
