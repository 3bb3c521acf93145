package override

import "strings"

// init fills the label table, labelList and its perfect hash labelSlots,
// from labelsOf: each label's key is the one Lookup folds it to, at the
// slot that key hashes to, which gen.go chose labelMult to keep apart.
func init() {
	n := 0
	for e, labels := range labelsOf {
		for label := range strings.FieldsSeq(labels) {
			k, ok := fold(label)
			if !ok || n == numLabels || labelSlots[k.slot()] != 0 {
				panic("override: labelsOf does not fit the label hash (go generate)")
			}
			n++
			labelList[n] = labelEntry{k, Encoding(e)}
			labelSlots[k.slot()] = uint8(n)
		}
	}
	if n != numLabels {
		panic("override: labelsOf does not fit the label hash (go generate)")
	}
}
