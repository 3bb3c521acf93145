// Package examples holds runnable examples of charsniff with popular Go
// scraping libraries: github.com/PuerkitoBio/goquery and
// github.com/gocolly/colly/v2. It is a module of its own, so that the
// charsniff module keeps its small set of dependencies; run the examples
// with "go test" in this directory.
package examples
