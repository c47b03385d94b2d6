//! Tells the tests whether they are built without optimisation.
//!
//! The CI profile builds optimised code with `debug_assert!` and overflow
//! checks on, so `cfg!(debug_assertions)` no longer says "slow build": the
//! suites that run fewer cases in an unoptimised build ask
//! [`testkit::UNOPTIMISED`] instead, which this script sets from the
//! profile's `opt-level` (Cargo's `OPT_LEVEL`).
fn main() {
    println!("cargo::rustc-check-cfg=cfg(testkit_unoptimised)");
    println!("cargo::rerun-if-env-changed=OPT_LEVEL");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=testkit_unoptimised");
    }
}
