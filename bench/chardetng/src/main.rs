// chardetng-guess prints, for each file named on the command line, a line
// "<path>\t<encoding name>": chardetng's guess for the file's bytes fed as
// the whole input, with no TLD and UTF-8 allowed. With -prefix, each file
// is fed as a prefix of a longer input (last = false), as the detector
// sees the first bytes of a page.
use std::io::Write;

fn main() {
    let mut last = true;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for arg in std::env::args().skip(1) {
        if arg == "-prefix" {
            last = false;
            continue;
        }
        let bytes = std::fs::read(&arg).expect("read");
        let mut det = chardetng::EncodingDetector::new();
        det.feed(&bytes, last);
        let enc = det.guess(None, true);
        writeln!(out, "{}\t{}", arg, enc.name()).unwrap();
    }
}
