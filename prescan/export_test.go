package prescan

// XNetEscapes makes s, in tokenizer mode, leave script data escaped for
// script data at a < followed by neither / nor a letter, as
// golang.org/x/net/html's tokenizer does (see tokenizer.go).
func XNetEscapes(s *Scanner) { s.meta.xnet = true }
