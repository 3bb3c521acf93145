//! encoding_rs-bench decodes files to UTF-8 with encoding_rs, as run.sh asks:
//!
//!     encoding_rs-bench SECONDS NAME LABEL FILE [NAME LABEL FILE ...]
//!
//! For each file it decodes the whole file, again and again for about
//! SECONDS, into a 32 KB output buffer that is then dropped (as a parser
//! reads), and prints one line: NAME, MB/s of input over wall-clock time,
//! MB/s over the thread's CPU time, and the length of the UTF-8 output
//! (which run.sh checks against charsniff's).

use encoding_rs::{CoderResult, Encoding};
use std::time::Instant;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// thread_cpu returns the CPU time of this thread in seconds
/// (CLOCK_THREAD_CPUTIME_ID, Linux).
fn thread_cpu() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 + ts.nsec as f64 * 1e-9
}

/// decode decodes src to its end into out, reused, and returns the bytes
/// written, so that the work cannot be dropped.
fn decode(enc: &'static Encoding, src: &[u8], out: &mut [u8]) -> usize {
    let mut d = enc.new_decoder();
    let mut pos = 0;
    let mut total = 0;
    loop {
        let (r, read, written, _) = d.decode_to_utf8(&src[pos..], out, true);
        pos += read;
        total += written;
        if let CoderResult::InputEmpty = r {
            return total;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 || (args.len() - 1) % 3 != 0 {
        eprintln!("usage: encoding_rs-bench SECONDS NAME LABEL FILE [NAME LABEL FILE ...]");
        std::process::exit(2);
    }
    let secs: f64 = args[0].parse().expect("SECONDS");
    let mut out = vec![0u8; 32 << 10];
    for spec in args[1..].chunks(3) {
        let enc = Encoding::for_label(spec[1].as_bytes())
            .unwrap_or_else(|| panic!("unknown label {}", spec[1]));
        let src = std::fs::read(&spec[2]).unwrap_or_else(|e| panic!("{}: {}", spec[2], e));
        let size = decode(enc, &src, &mut out); // warm up
        let mut sink = 0usize;
        let (t0, c0) = (Instant::now(), thread_cpu());
        let mut n = 0u64;
        while n == 0 || t0.elapsed().as_secs_f64() < secs {
            sink = sink.wrapping_add(decode(enc, std::hint::black_box(&src), &mut out));
            n += 1;
        }
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), thread_cpu() - c0);
        let mb = n as f64 * src.len() as f64 / 1e6;
        println!("{} {:.1} {:.1} {}", spec[0], mb / wall, mb / cpu, size);
        std::hint::black_box(sink);
    }
}
