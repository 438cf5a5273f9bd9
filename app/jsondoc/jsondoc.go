package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// bom is the UTF-8 encoding of U+FEFF, which some Windows editors put at
// the start of a UTF-8 file.
const bom = "\ufeff"

// A Format is a kind of versioned document.
type Format struct {
	Name    string // what the document is, the prefix of every error: "scene"
	Version int    // the one version this Orogen reads
	// NoVersion is what the error for a document without a "version" says
	// after `no "version": `; it should say what to add.
	NoVersion string
}

// Decode checks that b holds f.Version, then decodes b into v strictly
// (Strict). v is filled only when the version is right. A leading UTF-8
// byte order mark (Windows Notepad's "UTF-8 with BOM") is skipped; CRLF
// line ends are JSON white space already.
func (f Format) Decode(b []byte, v any) error {
	b = bytes.TrimPrefix(b, []byte(bom))
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&head); err != nil {
		return fmt.Errorf("%s: %w", f.Name, Err(b, err))
	}
	if head.Version == nil {
		return fmt.Errorf("%s: no \"version\": %s", f.Name, f.NoVersion)
	}
	if v := *head.Version; v > f.Version {
		return fmt.Errorf("%s: version %d is not supported: this Orogen reads version %d; a newer Orogen wrote it: open it with that one", f.Name, v, f.Version)
	} else if v != f.Version {
		return fmt.Errorf("%s: version %d is not supported: this Orogen reads version %d", f.Name, v, f.Version)
	}
	if err := Strict(b, v); err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	return nil
}

// Strict decodes the JSON document b into v, refusing keys v has no field
// for, a key given twice in one object (encoding/json would keep the last
// silently) and any text after the document (a stray closing '}' or ']'
// included).
func Strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Err(b, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("text after the JSON document")
	}
	return duplicateKeys(b)
}

// duplicateKeys returns an error naming the first key that an object of
// the JSON document b holds twice, with its line; b is valid JSON.
func duplicateKeys(b []byte) error {
	type frame struct {
		keys      map[string]bool // nil for an array
		expectKey bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return Err(b, err)
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.keys != nil {
					top.expectKey = true // after this value, a key
				}
				f := &frame{}
				if t == '{' {
					f.keys, f.expectKey = map[string]bool{}, true
				}
				stack = append(stack, f)
			default:
				stack = stack[:len(stack)-1]
			}
		default:
			if top == nil || top.keys == nil {
				continue
			}
			if top.expectKey {
				k, _ := t.(string)
				if top.keys[k] {
					off := min(int(dec.InputOffset()), len(b))
					return fmt.Errorf("line %d: key %q is given twice in one object: keep one", 1+bytes.Count(b[:off], []byte("\n")), k)
				}
				top.keys[k] = true
				top.expectKey = false
			} else {
				top.expectKey = true
			}
		}
	}
}

// Err makes an error of decoding the JSON document b say where it happened:
// the line of a syntax error, the key of a value of the wrong type. Other
// errors it returns unchanged.
func Err(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		return fmt.Errorf("line %d: %v", line, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: %s is not a valid %v", te.Field, te.Value, te.Type)
	}
	return err
}
