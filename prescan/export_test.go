package prescan

// XNetEscapes makes every Scanner in tokenizer mode, while on, leave
// script data escaped for script data at a < followed by neither / nor a
// letter, as golang.org/x/net/html's tokenizer does (see tokenizer.go).
// The tests that use it do not run in parallel.
func XNetEscapes(on bool) { xnetEscapes = on }
