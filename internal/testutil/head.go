package testutil

import "strings"

// TypicalHead is a 1024-byte <head> of the common kind, whose charset
// declaration (the old http-equiv form) ends at byte 1023, so a prescan walks
// the whole window. The prescan and sniff benchmarks and tests share it.
var TypicalHead = func() string {
	start := `<!DOCTYPE html>
<html lang="en">
<head>
<title>Example Domain - a page with a typical head</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="An example page whose head holds the usual links, scripts and metadata.">
<meta property="og:title" content="Example Domain">
<link rel="stylesheet" href="/static/css/main.css?v=20240101" type="text/css">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="canonical" href="https://www.example.com/articles/2024/typical-head.html">
<script async src="https://www.googletagmanager.com/gtag/js?id=G-XXXXXXX"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date());</script>
<style>body { margin: 0; font-family: -apple-system, "Segoe UI", Roboto, sans-serif; } a > b { color: #333; }</style>
<!-- `
	end := ` -->
<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`
	return start + strings.Repeat("x", 1024-len(start)-len(end)) + end
}()
