package prescan

import "testing"

// TestNameTable checks that nameTable answers as classify does, for the
// names it knows and for others.
func TestNameTable(t *testing.T) {
	names := append([]string{"a", "metax", "svgs", "annotation-xm", "foreignobjec", "x", "textareas", "h7"}, knownNames...)
	for _, n := range names {
		var tag [16]byte
		copy(tag[:], n)
		w0, w1 := packName(&tag)
		gi, gr := lookupName(w0, w1, nameKey(w0, w1))
		wi, wr := classify([]byte(n))
		if gi != wi || gr != wr {
			t.Errorf("%q: nameTable gives %#x, %d; classify %#x, %d", n, gi, gr, wi, wr)
		}
	}
	for _, n := range knownNames {
		if i, r := classify([]byte(n)); i == 0 && r == 0 {
			t.Errorf("%q in knownNames: classify knows nothing of it", n)
		}
	}
}
