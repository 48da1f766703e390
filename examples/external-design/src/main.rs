//! The same run as `benches/suite.rs` as a plain binary (what the crate's test runs, built in
//! the dev profile): `external-design [criterion args]` runs the ID-table family with
//! [`VecGen`], or with its deliberately broken copy when `EXTERNAL_DESIGN_BROKEN=1`;
//! `external-design advise TRACE [OUT]` ranks every ID-table design and `VecGen` on a trace.

use dodbench::external::replay::IdTableFamily;
use dodbench::workloads::Payload;
use external_design::{BrokenVecGen, VecGen};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("advise") {
        let Some(trace) = args.get(1) else {
            eprintln!("usage: external-design advise TRACE [OUT]");
            std::process::exit(2);
        };
        let mut options = dodbench::external::AdviseOptions::default();
        if let Some(out) = args.get(2) {
            options.out = out.into();
        }
        match dodbench::external::advise::<IdTableFamily, VecGen<Payload>>(trace.as_ref(), &options)
        {
            Ok(advice) => println!("{}", advice.summary()),
            Err(e) => {
                eprintln!("external-design: {}", dodbench::error_line(&e));
                std::process::exit(2);
            }
        }
    } else if std::env::var_os("EXTERNAL_DESIGN_BROKEN").is_some() {
        dodbench::external::main::<IdTableFamily, BrokenVecGen<Payload>>();
    } else {
        dodbench::external::main::<IdTableFamily, VecGen<Payload>>();
    }
}
