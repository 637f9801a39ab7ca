//! Strips the symbol table from optimised builds without debug info on ELF targets: those are the
//! installed builds. `cargo install lz4-simd-cli` builds with cargo's default release profile
//! (which strips the debug info only), since a published crate built inside this workspace
//! cannot carry a profile of its own (cargo ignores a member's profiles, and warns). Builds with
//! debug info, such as the workspace's release profile (`debug = 1`, for profiling and
//! disassembly) and the test builds, keep their symbols.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let installed = var("DEBUG") == "false" && var("OPT_LEVEL") != "0";
    let elf = matches!(
        var("CARGO_CFG_TARGET_OS").as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos"
    );
    if installed && elf {
        println!("cargo::rustc-link-arg-bins=-Wl,--strip-all");
    }
}
