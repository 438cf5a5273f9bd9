package project

import "orogen/sim"

// EncodeLayerData returns the data string of f as a layer, without the
// checks Marshal makes, so that tests can forge bad layers.
func EncodeLayerData(f *sim.Field) string {
	l, err := encodeLayer(f)
	if err != nil {
		panic(err)
	}
	return l.Data
}
