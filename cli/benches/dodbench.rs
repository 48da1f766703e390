//! `cargo bench`: runs the `dodbench` binary cargo built beside this target as the criterion
//! driver over every family (`dodbench::bench`), with this process's arguments.
//!
//! The driver is in the binary, not here, so `cargo bench` optimizes the whole program once
//! (fat LTO of one program, not of two: this target links no dodbench code), the README's
//! `dodbench` commands after it run the same build, and the cache pass (`dodbench cache`)
//! simulates the machine code the bench times.

#[path = "../src/bench/launcher.rs"]
mod launcher;

fn main() {
    let driver = env!("CARGO_BIN_EXE_dodbench");
    let mut command = std::process::Command::new(driver);
    command
        .args(std::env::args_os().skip(1))
        .env(launcher::RUN_AS_BENCH, "1");
    #[cfg(unix)]
    let error = {
        use std::os::unix::process::CommandExt;
        // Replaces this process: cargo waits for the driver itself, and a Ctrl-C reaches it.
        command.exec()
    };
    #[cfg(not(unix))]
    let error = match command.status() {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(e) => e,
    };
    eprintln!("dodbench: cannot run the bench's driver {driver}: {error}");
    std::process::exit(2);
}
