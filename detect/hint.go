package detect

// Hint is what the caller knows of the text's origin, which browsers use to
// favour a region's customary encodings.
type Hint struct {
	// TLD is the top-level domain of the document's URL: "ru", ".jp", or
	// a whole host name ("www.example.cz"), of which the last label counts.
	TLD string
	// Language is a language tag such as "ja", "ru" or "zh-TW" (the user's
	// locale, or a Content-Language).
	Language string
}
