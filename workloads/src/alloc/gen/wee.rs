//! `alloc-wee-*`: six real programs' allocation recordings from the `wee_alloc` repository
//! (`workloads/traces/wee_alloc/`, MPL-2.0, with their README and LICENSE), converted by
//! [`convert::wee_alloc`](crate::alloc::wee_alloc): alignment 8, `Alloc(0)` as 1 byte, the
//! whole recording as the timed body, an empty setup.
//!
//! These are recorded traces (the registry's `recorded` arm): `n` and the seed are ignored, the
//! trace is the same for every call, and its header records `n` = the recording's peak live
//! blocks and seed 0, so every run names it the same way.
//!
//! | workload | file | program | body ops (allocs / frees) | peak live blocks | peak requested | largest request |
//! |---|---|---|---|---|---|---|
//! | `alloc-wee-cpp-demangle` | `cpp-demangle.trace` | a c++filt clone | 102 (62 / 40) | 46 | 16 KB | 8192 B |
//! | `alloc-wee-dogfood` | `dogfood.trace` | the tracing script itself | 46 076 (32 472 / 13 604) | 18 869 | 1.36 MB | 198 802 B |
//! | `alloc-wee-ffmpeg` | `ffmpeg.trace` | ffmpeg, mp3 to flac | 3 637 (1 832 / 1 805) | 1 167 | 604 KB | 72 704 B |
//! | `alloc-wee-find` | `find.trace` | `find` on a directory | 1 130 (567 / 563) | 166 | 66 KB | 32 816 B |
//! | `alloc-wee-grep` | `grep-random-data.trace` | grep through random data | 198 (122 / 76) | 89 | 54 KB | 36 872 B |
//! | `alloc-wee-ls` | `ls.trace` | `ls` in a small directory | 82 (45 / 37) | 40 | 56 KB | 32 816 B |
//!
//! The small recordings take microseconds per replay: they show per-op cost on a real size mix
//! rather than steady-state throughput.

use crate::alloc::AllocOp;
use crate::trace::Trace;

crate::workload_params! {
    /// Parameters of the recorded `alloc-wee-*` workloads (none: the recording is fixed).
    pub struct WeeTraceParams {}
}

/// The recording embedded as `text`, converted, its header naming `name`.
///
/// # Panics
/// If the embedded file does not convert (the module's tests convert every one).
fn recorded(name: &str, text: &str, params: &WeeTraceParams) -> Trace<AllocOp> {
    let params = serde_json::to_value(params).expect("parameter structs serialise");
    crate::alloc::wee_alloc::parse(text, name, params)
        .unwrap_or_else(|e| panic!("embedded wee_alloc trace of {name}: {e}"))
}

/// One module per recording, with the `NAME`, `DESCRIPTION` and `generate` the registry's
/// `entry!` expects.
macro_rules! wee_workload {
    ($module:ident, $name:literal, $file:literal, $description:literal) => {
        #[doc = concat!("`", $name, "`: the recording `", $file, "` (see [the parent module](super)).")]
        pub mod $module {
            use super::WeeTraceParams;
            use crate::alloc::AllocOp;
            use crate::trace::Trace;

            /// Registry name.
            pub const NAME: &str = $name;
            /// One-line description for `dodbench list`.
            pub const DESCRIPTION: &str = $description;
            /// The embedded recording.
            const TEXT: &str = include_str!(concat!("../../../traces/wee_alloc/", $file));

            /// The recording as a trace; `n` and `seed` are ignored.
            pub fn generate(_n: usize, _seed: u64, params: &WeeTraceParams) -> Trace<AllocOp> {
                super::recorded(NAME, TEXT, params)
            }
        }
    };
}

wee_workload!(
    alloc_wee_cpp_demangle,
    "alloc-wee-cpp-demangle",
    "cpp-demangle.trace",
    "recorded (wee_alloc): a c++filt clone demangling a symbol; 102 ops, n ignored"
);
wee_workload!(
    alloc_wee_dogfood,
    "alloc-wee-dogfood",
    "dogfood.trace",
    "recorded (wee_alloc): the tracing script itself; 46K ops, up to 19K live blocks (1.4 MB), n ignored"
);
wee_workload!(
    alloc_wee_ffmpeg,
    "alloc-wee-ffmpeg",
    "ffmpeg.trace",
    "recorded (wee_alloc): ffmpeg converting mp3 to flac; 3.6K ops, n ignored"
);
wee_workload!(
    alloc_wee_find,
    "alloc-wee-find",
    "find.trace",
    "recorded (wee_alloc): find on a directory; 1.1K ops, n ignored"
);
wee_workload!(
    alloc_wee_grep,
    "alloc-wee-grep",
    "grep-random-data.trace",
    "recorded (wee_alloc): grep through random data; 198 ops, n ignored"
);
wee_workload!(
    alloc_wee_ls,
    "alloc-wee-ls",
    "ls.trace",
    "recorded (wee_alloc): ls in a small directory; 82 ops, n ignored"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every embedded recording converts, and the module table's counts are true.
    #[test]
    fn recordings_convert_with_the_documented_counts() {
        let p = WeeTraceParams {};
        type Generate = fn(usize, u64, &WeeTraceParams) -> Trace<AllocOp>;
        let cases: [(Generate, [u64; 4]); 6] = [
            (alloc_wee_cpp_demangle::generate, [62, 40, 46, 8192]),
            (
                alloc_wee_dogfood::generate,
                [32_472, 13_604, 18_869, 198_802],
            ),
            (alloc_wee_ffmpeg::generate, [1_832, 1_805, 1_167, 72_704]),
            (alloc_wee_find::generate, [567, 563, 166, 32_816]),
            (alloc_wee_grep::generate, [122, 76, 89, 36_872]),
            (alloc_wee_ls::generate, [45, 37, 40, 32_816]),
        ];
        for (generate, [allocs, frees, peak_live, max_size]) in cases {
            let t = generate(1, 7, &p);
            let s = t.validate().unwrap();
            let got = [s.allocs, s.frees, s.peak_live, s.max_size];
            assert_eq!(
                got,
                [allocs, frees, peak_live, max_size],
                "{}",
                t.header.generator
            );
            assert!(t.setup.is_empty());
            assert_eq!((t.header.n, t.header.seed), (peak_live, 0));
            assert_eq!(generate(1000, 8, &p), t, "n and seed are ignored");
        }
    }
}
