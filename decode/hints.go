package decode

// WithTLD gives the top-level domain, or the whole host name, of the
// document's URL ("jp", ".ru", "www.example.cz"). Browsers use it to favour
// a region's customary encodings: it biases autodetection, and chooses the
// default encoding when [WithLocale] and [WithDefault] do not.
func WithTLD(tld string) Option {
	return func(c *config) { c.sniff.TLD = tld }
}
