//! Tells the tests whether a Chromium is installed (`DODBENCH_CHROMIUM`, or `chromium`,
//! `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`), so the browser test
//! is listed by `cargo test` as ignored with the reason (`cfg(dodbench_no_chromium)`), not
//! passed silently. Under `CI=true` it is never ignored: a missing Chromium fails it there.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(dodbench_no_chromium)");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-env-changed=DODBENCH_CHROMIUM");
    let named = std::env::var_os("DODBENCH_CHROMIUM").is_some();
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            [
                "chromium",
                "chromium-browser",
                "google-chrome",
                "google-chrome-stable",
            ]
            .iter()
            .any(|name| dir.join(name).is_file())
        })
    });
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !named && !on_path && !ci {
        println!("cargo:rustc-cfg=dodbench_no_chromium");
    }
}
