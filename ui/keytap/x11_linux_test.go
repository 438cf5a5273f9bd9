package keytap

import "testing"

func TestX11Keys(t *testing.T) {
	for _, c := range []struct {
		sym uint32
		k   Key
		ok  bool
	}{
		{0xff08, Backspace, true}, {0xffff, Delete, true}, {0xff0d, Enter, true}, {0xff8d, KPEnter, true},
		{0xff51, Left, true}, {0xff56, PageDown, true}, {'z', Letter('Z'), true}, {'A', Letter('a'), true},
		{'5', 0, false}, {0xffbe /* F1 */, 0, false},
	} {
		if k, ok := x11Key(c.sym); ok != c.ok || (ok && k != c.k) {
			t.Errorf("x11Key(%#x) = %v, %v; want %v, %v", c.sym, k, ok, c.k, c.ok)
		}
	}
	if Letter('z') != NumKeys-1 {
		t.Errorf("Letter('z') = %d; want the last key, %d", Letter('z'), NumKeys-1)
	}
}
