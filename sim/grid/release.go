package grid

// Release drops the scratch buffers of the flow routing (engine.Releaser);
// the next Step grows them again and gives the results it would have
// given without the Release. With the lakes' water budget on, the trees
// its lakes are drawn from stay.
func (e *Engine) Release() {
	if e.g == nil {
		return
	}
	if e.wat != nil {
		e.g.Release()
		return
	}
	e.g.ReleaseTrees()
}
