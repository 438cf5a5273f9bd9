package uplifttree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Version is the version of the JSON form this package writes and reads.
const Version = 1

// Marshal returns the JSON form of t: nodes in depth-first order from the
// root, one per line, every parameter written (optional ones too), numbers
// in the shortest form that reads back to the same float64. Unmarshal of
// the result gives a tree that marshals to the same bytes.
func Marshal(t *Tree) ([]byte, error) {
	var b []byte
	b = fmt.Appendf(b, "{\n  \"version\": %d,\n  \"root\": %d,\n  \"nodes\": [", Version, t.root)
	firstNode := true
	stack := []ID{t.root}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := t.nodes[id]
		if !firstNode {
			b = append(b, ',')
		}
		firstNode = false
		b = fmt.Appendf(b, "\n    {\"id\": %d, \"type\": %q", id, n.shape.Type())
		for _, p := range n.shape.params() {
			b = fmt.Appendf(b, ", %q: ", p.name)
			b = appendParam(b, p)
		}
		if _, hi := childRange(n.shape); hi != 0 {
			b = append(b, ", \"children\": ["...)
			for i, c := range n.children {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = strconv.AppendInt(b, int64(c), 10)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
		for i := len(n.children) - 1; i >= 0; i-- {
			stack = append(stack, n.children[i])
		}
	}
	b = append(b, "\n  ]\n}\n"...)
	return b, nil
}

// MarshalJSON implements json.Marshaler with Marshal.
func (t *Tree) MarshalJSON() ([]byte, error) { return Marshal(t) }

// UnmarshalJSON implements json.Unmarshaler with Unmarshal; on error t is
// left unchanged.
func (t *Tree) UnmarshalJSON(data []byte) error {
	u, err := Unmarshal(data)
	if err != nil {
		return err
	}
	*t = Tree{nodes: u.nodes, root: u.root, next: u.next, an: u.an}
	return nil
}

func appendNum(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', -1, 64) }

func appendPoint(b []byte, p Point) []byte {
	b = append(b, '[')
	b = appendNum(b, p.X)
	b = append(b, ", "...)
	b = appendNum(b, p.Y)
	return append(b, ']')
}

func appendParam(b []byte, p param) []byte {
	switch v := p.ptr.(type) {
	case *float64:
		return appendNum(b, *v)
	case *int:
		return strconv.AppendInt(b, int64(*v), 10)
	case *uint64:
		return strconv.AppendUint(b, *v, 10)
	case *ID:
		return strconv.AppendInt(b, int64(*v), 10)
	case *Point:
		return appendPoint(b, *v)
	case *[]Point:
		b = append(b, '[')
		for i, q := range *v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPoint(b, q)
		}
		return append(b, ']')
	case *[]Ctrl:
		b = append(b, '[')
		for i, c := range *v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, `{"t": `...)
			b = appendNum(b, c.T)
			b = append(b, `, "r": `...)
			b = appendNum(b, c.R)
			b = append(b, `, "u": `...)
			b = appendNum(b, c.U)
			b = append(b, '}')
		}
		return append(b, ']')
	case *[]Vertex:
		b = append(b, '[')
		for i, c := range *v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, `{"x": `...)
			b = appendNum(b, c.X)
			b = append(b, `, "y": `...)
			b = appendNum(b, c.Y)
			b = append(b, `, "r": `...)
			b = appendNum(b, c.R)
			b = append(b, `, "u": `...)
			b = appendNum(b, c.U)
			b = append(b, '}')
		}
		return append(b, ']')
	case *Rect:
		b = append(b, '[')
		for i, x := range [4]float64{v.X0, v.Y0, v.X1, v.Y1} {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendNum(b, x)
		}
		return append(b, ']')
	case *string:
		s, _ := json.Marshal(*v) // a string always marshals
		return append(b, s...)
	}
	panic("uplifttree: bad parameter binding")
}

// Unmarshal reads the JSON form of a tree. It is strict: the version must
// be 1; unknown keys, unknown node types, missing required parameters,
// values of the wrong JSON type, numbers that are not finite or too large,
// negative radii and other bad values, wrong child counts, duplicate or
// dangling IDs, nodes unreachable from the root, and instance cycles are
// errors (an *Error naming the node and field). Optional parameters may be
// omitted; they take the defaults of NewShape.
func Unmarshal(data []byte) (*Tree, error) {
	if len(data) > maxDocBytes {
		return nil, &Error{Msg: fmt.Sprintf("the document is %.1f MB; the limit is %d MB (%d nodes at most)", float64(len(data))/(1<<20), maxDocBytes>>20, maxNodes)}
	}
	top, err := object(data)
	if err != nil {
		return nil, &Error{Msg: "the document: " + err.Error()}
	}
	var (
		root  ID
		nodes = map[ID]*node{}
		seen  = map[string]bool{}
	)
	for _, kv := range top {
		seen[kv.key] = true
		switch kv.key {
		case "version":
			v, err := integer(kv.val)
			if err != nil {
				return nil, &Error{Field: "version", Msg: err.Error()}
			}
			if v != Version {
				return nil, &Error{Field: "version", Msg: fmt.Sprintf("is %d; this build reads version %d", v, Version)}
			}
		case "root":
			v, err := integer(kv.val)
			if err != nil {
				return nil, &Error{Field: "root", Msg: err.Error()}
			}
			root = ID(v)
		case "nodes":
			items, err := array(kv.val)
			if err != nil {
				return nil, &Error{Field: "nodes", Msg: err.Error()}
			}
			for i, raw := range items {
				id, n, err := decodeNode(raw)
				if err != nil {
					if e, ok := err.(*Error); ok {
						if e.ID == 0 {
							e.Field = fmt.Sprintf("nodes[%d]", i) + dotted(e.Field)
						}
						return nil, e
					}
					return nil, &Error{Field: fmt.Sprintf("nodes[%d]", i), Msg: err.Error()}
				}
				if _, dup := nodes[id]; dup {
					return nil, nodeErr(id, n.shape, "id", "appears twice")
				}
				nodes[id] = n
			}
		default:
			return nil, &Error{Field: kv.key, Msg: `unknown key; a tree has "version", "root" and "nodes"`}
		}
	}
	for _, k := range []string{"version", "root", "nodes"} {
		if !seen[k] {
			return nil, &Error{Field: k, Msg: "is required"}
		}
	}
	an, err := analyze(nodes, root, nil)
	if err != nil {
		return nil, err
	}
	t := &Tree{nodes: nodes, root: root, an: an}
	for id := range nodes {
		t.next = max(t.next, id)
	}
	t.next++
	return t, nil
}

func dotted(f string) string {
	if f == "" {
		return ""
	}
	return "." + f
}

// decodeNode reads one node object.
func decodeNode(raw json.RawMessage) (ID, *node, error) {
	kvs, err := object(raw)
	if err != nil {
		return 0, nil, err
	}
	var (
		id       ID
		typ      string
		hasType  bool
		children json.RawMessage
	)
	for _, kv := range kvs {
		switch kv.key {
		case "id":
			v, err := integer(kv.val)
			if err != nil {
				return 0, nil, &Error{Field: "id", Msg: err.Error()}
			}
			if v <= 0 {
				return 0, nil, &Error{Field: "id", Msg: fmt.Sprintf("must be positive, got %d", v)}
			}
			id = ID(v)
		case "type":
			s, err := str(kv.val)
			if err != nil {
				return 0, nil, &Error{Field: "type", Msg: err.Error()}
			}
			typ, hasType = s, true
		case "children":
			children = kv.val
		}
	}
	if id == 0 {
		return 0, nil, &Error{Field: "id", Msg: "is required"}
	}
	if !hasType {
		return 0, nil, &Error{ID: id, Field: "type", Msg: "is required"}
	}
	s, ok := NewShape(typ)
	if !ok {
		return 0, nil, &Error{ID: id, Field: "type", Msg: fmt.Sprintf("unknown node type %q; known types: %s", typ, strings.Join(allTypes, ", "))}
	}
	n := &node{shape: s}
	ps := s.params()
	got := map[string]bool{}
	for _, kv := range kvs {
		switch kv.key {
		case "id", "type", "children":
			continue
		}
		p, ok := lookup(s, kv.key)
		if !ok {
			return 0, nil, nodeErr(id, s, kv.key, "unknown key; %s", paramList(s))
		}
		if err := decodeParam(p, kv.val); err != nil {
			return 0, nil, nodeErr(id, s, kv.key, "%s", err)
		}
		got[kv.key] = true
	}
	for _, p := range ps {
		if p.req && !got[p.name] {
			return 0, nil, nodeErr(id, s, p.name, "is required")
		}
	}
	if children != nil {
		items, err := array(children)
		if err != nil {
			return 0, nil, nodeErr(id, s, "children", "%s", err)
		}
		for i, raw := range items {
			v, err := integer(raw)
			if err != nil {
				return 0, nil, nodeErr(id, s, fmt.Sprintf("children[%d]", i), "%s", err)
			}
			n.children = append(n.children, ID(v))
		}
	}
	return id, n, nil
}

func decodeParam(p param, raw json.RawMessage) error {
	switch dst := p.ptr.(type) {
	case *float64:
		v, err := number(raw)
		*dst = v
		return err
	case *int:
		v, err := integer(raw)
		if err == nil && (v < -1<<31 || v > 1<<31-1) {
			err = fmt.Errorf("%d is out of range", v)
		}
		*dst = int(v)
		return err
	case *uint64:
		s := string(bytes.TrimSpace(raw))
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer from 0 to %d, got %s", uint64(math.MaxUint64), clip(s))
		}
		*dst = v
		return nil
	case *ID:
		v, err := integer(raw)
		*dst = ID(v)
		return err
	case *Point:
		v, err := pointOf(raw)
		*dst = v
		return err
	case *[]Point:
		items, err := array(raw)
		if err != nil {
			return err
		}
		out := make([]Point, 0, len(items))
		for i, it := range items {
			v, err := pointOf(it)
			if err != nil {
				return fmt.Errorf("[%d]: %v", i, err)
			}
			out = append(out, v)
		}
		*dst = out
		return nil
	case *[]Ctrl:
		items, err := array(raw)
		if err != nil {
			return err
		}
		out := make([]Ctrl, 0, len(items))
		for i, it := range items {
			var c Ctrl
			if err := fields(it, []string{"t", "r", "u"}, &c.T, &c.R, &c.U); err != nil {
				return fmt.Errorf("[%d]: %v", i, err)
			}
			out = append(out, c)
		}
		*dst = out
		return nil
	case *[]Vertex:
		items, err := array(raw)
		if err != nil {
			return err
		}
		out := make([]Vertex, 0, len(items))
		for i, it := range items {
			var v Vertex
			if err := fields(it, []string{"x", "y", "r", "u"}, &v.X, &v.Y, &v.R, &v.U); err != nil {
				return fmt.Errorf("[%d]: %v", i, err)
			}
			out = append(out, v)
		}
		*dst = out
		return nil
	case *Rect:
		vs, err := numbers(raw, 4)
		if err != nil {
			return err
		}
		*dst = Rect{vs[0], vs[1], vs[2], vs[3]}
		return nil
	case *string:
		s, err := str(raw)
		*dst = s
		return err
	}
	panic("uplifttree: bad parameter binding")
}

// fields reads an object with exactly the given number-valued keys.
func fields(raw json.RawMessage, keys []string, dst ...*float64) error {
	kvs, err := object(raw)
	if err != nil {
		return err
	}
	got := make([]bool, len(keys))
	for _, kv := range kvs {
		i := 0
		for i < len(keys) && keys[i] != kv.key {
			i++
		}
		if i == len(keys) {
			return fmt.Errorf("unknown key %q; want %q", kv.key, keys)
		}
		v, err := number(kv.val)
		if err != nil {
			return fmt.Errorf("%s: %v", kv.key, err)
		}
		*dst[i], got[i] = v, true
	}
	for i, k := range keys {
		if !got[i] {
			return fmt.Errorf("%s: is required", k)
		}
	}
	return nil
}

type keyValue struct {
	key string
	val json.RawMessage
}

// object splits a JSON object into its members in order, rejecting
// duplicate keys and anything after the closing brace.
func object(raw []byte) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxErr(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want an object, got %s", clip(string(bytes.TrimSpace(raw))))
	}
	var kvs []keyValue
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxErr(err)
		}
		key := tok.(string) // object keys are strings in valid JSON
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, syntaxErr(err)
		}
		if seen[key] {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		seen[key] = true
		kvs = append(kvs, keyValue{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the object")
	}
	return kvs, nil
}

func syntaxErr(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("not valid JSON: unexpected end of input")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

func array(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, fmt.Errorf("want an array, got %s", clip(string(raw)))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, syntaxErr(err)
	}
	return items, nil
}

func isNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

func number(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if !isNumber(raw) {
		return 0, fmt.Errorf("want a number, got %s", clip(string(raw)))
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("must be a finite number, got %s", clip(string(raw)))
	}
	return v, nil
}

func integer(raw json.RawMessage) (int64, error) {
	raw = bytes.TrimSpace(raw)
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || !isNumber(raw) {
		return 0, fmt.Errorf("want an integer, got %s", clip(string(raw)))
	}
	return v, nil
}

func numbers(raw json.RawMessage, n int) ([]float64, error) {
	items, err := array(raw)
	if err != nil {
		return nil, err
	}
	if len(items) != n {
		return nil, fmt.Errorf("want an array of %d numbers, got %d elements", n, len(items))
	}
	out := make([]float64, n)
	for i, it := range items {
		if out[i], err = number(it); err != nil {
			return nil, fmt.Errorf("[%d]: %v", i, err)
		}
	}
	return out, nil
}

func pointOf(raw json.RawMessage) (Point, error) {
	vs, err := numbers(raw, 2)
	if err != nil {
		return Point{}, err
	}
	return Point{vs[0], vs[1]}, nil
}

func str(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", fmt.Errorf("want a string, got %s", clip(string(raw)))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", syntaxErr(err)
	}
	return s, nil
}

// clip shortens a JSON excerpt for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
