//! Tells the tests whether valgrind is installed, so the tests that need it are listed by
//! `cargo test` as ignored with the reason (`cfg(dodbench_no_valgrind)`), not passed silently.
//! Under `CI=true` they are never ignored: a missing valgrind fails them there.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(dodbench_no_valgrind)");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("valgrind").is_file()));
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !on_path && !ci {
        println!("cargo:rustc-cfg=dodbench_no_valgrind");
    }
}
