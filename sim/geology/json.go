package geology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Parse reads a geology from JSON (Spec's fields; unknown fields are
// errors) and compiles it.
func Parse(b []byte) (*Model, error) {
	var s Spec
	if err := DecodeSpec(b, &s); err != nil {
		return nil, err
	}
	return s.Compile()
}

// DecodeSpec reads a Spec from JSON strictly (unknown fields and trailing
// data are errors) without compiling it.
func DecodeSpec(b []byte, s *Spec) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(s); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("geology: JSON syntax error at byte %d: %v", se.Offset, err)
		case errors.As(err, &te):
			return fmt.Errorf("geology: field %q: %v", te.Field, err)
		}
		return fmt.Errorf("geology: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("geology: trailing data after the JSON object")
	}
	if n := len(s.Deformations); n > MaxDeformations {
		return fmt.Errorf("geology: %d deformations; the limit is %d (each one is evaluated at every cell, every step)", n, MaxDeformations)
	}
	return nil
}

// MarshalJSON writes the model's spec.
func (m *Model) MarshalJSON() ([]byte, error) { return json.Marshal(m.spec) }
