//go:build !purego

package invariance

func buildTags() string { return "" }
