// Package bench measures charsniff against its peers in one run: the
// golang.org/x/net/html/charset reader, a plain golang.org/x/text
// transform.Reader, and (for detection) other Go detectors. It is its own
// module so that peer dependencies stay out of charsniff's go.mod.
//
// See README.md for how to run it and the latest results.
package bench
