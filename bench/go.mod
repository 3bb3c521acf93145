module github.com/charsniff/charsniff/bench

go 1.26.0

require (
	github.com/charsniff/charsniff v0.0.0
	github.com/klauspost/compress v1.20.4
	github.com/saintfish/chardet v0.0.0-20230101081208-5e3ef4b5456d
	github.com/wlynxg/chardet v1.0.5
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
	golang.org/x/text v0.43.0
)

require github.com/andybalholm/brotli v1.3.0 // indirect

replace github.com/charsniff/charsniff => ../
