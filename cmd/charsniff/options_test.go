package main

import "testing"

func TestKnownLocale(t *testing.T) {
	known := []string{"ja", "ru", "zh-TW", "zh-Hant-HK", "sah", "en", "pt_BR.UTF-8", "sr_RS@latin", "C", "POSIX",
		".jp", ".co.jp", ".xn--p1ai", "jp", "kr", "uk"}
	unknown := []string{"xx", "qq", "Japanese", "ja-", "-", ".", ".jp.", "..jp", ".j", ".123", "x", "zz", "ja_JP!"}
	for _, s := range known {
		if !knownLocale(s) {
			t.Errorf("knownLocale(%q) = false, want true", s)
		}
	}
	for _, s := range unknown {
		if knownLocale(s) {
			t.Errorf("knownLocale(%q) = true, want false", s)
		}
	}
}
