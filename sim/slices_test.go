package sim

import "testing"

func TestResize(t *testing.T) {
	s := make([]int, 3, 10)
	s[0] = 7
	if got := Resize(s, 8); len(got) != 8 || cap(got) != 10 || got[0] != 7 {
		t.Errorf("Resize within capacity: got len %d cap %d [0]=%d; want 8, 10, 7 (the same array)", len(got), cap(got), got[0])
	}
	if got := Resize(s, 11); len(got) != 11 || cap(got) != 11 || got[0] != 0 {
		t.Errorf("Resize past capacity: got len %d cap %d [0]=%d; want 11, 11, 0 (a new zeroed array)", len(got), cap(got), got[0])
	}
	if got := ResizeSpare(s, 8); len(got) != 8 || cap(got) != 10 {
		t.Errorf("ResizeSpare within capacity: got len %d cap %d; want 8, 10", len(got), cap(got))
	}
	if got := ResizeSpare(s, 40); len(got) != 40 || cap(got) != 40+10+16 {
		t.Errorf("ResizeSpare past capacity: got len %d cap %d; want 40, 66", len(got), cap(got))
	}
}
