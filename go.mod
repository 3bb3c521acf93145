module github.com/charsniff/charsniff

go 1.26
