package uplifttree

import (
	"bytes"
	"strings"
	"testing"
)

// TestDocumentSizeCapped: a tree document beyond maxDocBytes is refused
// before it is parsed (issue 31.7: a 100 MB tree ran for most of a
// minute before its node count was refused).
func TestDocumentSizeCapped(t *testing.T) {
	doc := append([]byte(`{"version": 1, "pad": "`), bytes.Repeat([]byte("x"), maxDocBytes)...)
	doc = append(doc, `"}`...)
	_, err := Unmarshal(doc)
	if err == nil || !strings.Contains(err.Error(), "the limit is 16 MB") {
		t.Errorf("got %v; want the size refused", err)
	}
}
