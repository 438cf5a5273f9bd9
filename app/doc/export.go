package doc

import (
	"image"
	"reflect"

	"orogen/app/export"
)

// Export returns a copy of the document's export profile (nil: none).
func (d *Doc) Export() *export.Profile { return d.export.Clone() }

// SetExport replaces the export profile (nil removes it), an undoable
// edit. An invalid profile returns its error and changes nothing; an
// equal one makes no undo entry.
func (d *Doc) SetExport(p *export.Profile) error {
	if p != nil {
		if err := p.Validate(); err != nil {
			return err
		}
	}
	if reflect.DeepEqual(p, d.export) {
		return nil
	}
	d.endStroke()
	o := &exportOp{before: d.export, after: p.Clone()}
	d.export = o.after
	d.push("Export profile", "", o)
	return nil
}

// exportOp is a change of the export profile.
type exportOp struct{ before, after *export.Profile }

func (o *exportOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	if redo {
		d.export = o.after
	} else {
		d.export = o.before
	}
	return image.Rectangle{}, false, nil
}

func (o *exportOp) size() int { return opSize }
