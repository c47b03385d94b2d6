//! `senat-fuzz`: runs the fuzz targets of this crate.
//!
//! ```text
//! senat-fuzz [TARGET...] [--cases N] [--seconds T] [--seed S] [--crashes DIR]
//! senat-fuzz --replay TARGET FILE...
//! senat-fuzz --list
//! ```
//!
//! Each target runs until N cases or T seconds, whichever comes first
//! (defaults: no case limit, 5 seconds). It prints the cases run and the
//! crashes found per target, saves one input per distinct crash under
//! `DIR/<target>/` (default `fuzz-crashes`), and exits with status 1 when
//! any target crashed, 2 on bad arguments. It never writes elsewhere
//! than DIR and its own temporary folder.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use senat_fuzz::engine::{self, Target};
use senat_fuzz::targets;

struct Args {
    names: Vec<String>,
    cases: u64,
    seconds: f64,
    seed: u64,
    crashes: PathBuf,
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("senat-fuzz: {msg}");
    eprintln!(
        "usage: senat-fuzz [TARGET...] [--cases N] [--seconds T] [--seed S] [--crashes DIR] | --replay TARGET FILE... | --list"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some("--list") {
        for t in targets::all() {
            println!("{:<10} {}", t.name, t.about);
        }
        return ExitCode::SUCCESS;
    }
    if argv.first().map(String::as_str) == Some("--replay") {
        let Some(t) = argv.get(1).and_then(|n| targets::target(n)) else {
            return usage("--replay needs a target name (see --list)");
        };
        return replay(t, &argv[2..]);
    }
    let mut a = Args { names: Vec::new(), cases: u64::MAX, seconds: 5.0, seed: 1, crashes: "fuzz-crashes".into() };
    let mut it = argv.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().ok_or_else(|| format!("{flag} needs a value"));
        let r: Result<(), String> = match arg.as_str() {
            "--cases" => {
                value("--cases").and_then(|v| v.parse().map(|n| a.cases = n).map_err(|e| format!("--cases: {e}")))
            }
            "--seconds" => value("--seconds").and_then(|v| match v.parse::<f64>() {
                Ok(s) if s.is_finite() && s >= 0.0 => {
                    a.seconds = s;
                    Ok(())
                }
                _ => Err(format!("--seconds `{v}` is not a number of seconds")),
            }),
            "--seed" => value("--seed").and_then(|v| v.parse().map(|n| a.seed = n).map_err(|e| format!("--seed: {e}"))),
            "--crashes" => value("--crashes").map(|v| a.crashes = v.into()),
            name if targets::target(name).is_some() => {
                a.names.push(name.to_string());
                Ok(())
            }
            other => Err(format!("unknown target or option `{other}` (see --list)")),
        };
        if let Err(e) = r {
            return usage(&e);
        }
    }
    let chosen: Vec<&Target> = if a.names.is_empty() {
        targets::all().collect()
    } else {
        a.names.iter().filter_map(|n| targets::target(n)).collect()
    };
    engine::quiet_panics();
    let mut total_crashes = 0;
    for t in chosen {
        let seeds = engine::seeds_of(t);
        let r = engine::fuzz(t, &seeds, a.seed, a.cases, Duration::from_secs_f64(a.seconds));
        let rate = r.cases as f64 / r.elapsed.as_secs_f64().max(1e-9);
        println!(
            "{:<10} {:>10} cases in {:>6.1} s ({:>8.0}/s), {} crashes, {} distinct",
            t.name,
            r.cases,
            r.elapsed.as_secs_f64(),
            rate,
            r.crashes,
            r.distinct.len()
        );
        total_crashes += r.crashes;
        for (msg, data) in &r.distinct {
            let dir = a.crashes.join(t.name);
            let path = dir.join(format!("crash-{:016x}", engine::fnv1a(data)));
            let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, data));
            match saved {
                Ok(()) => println!("  crash saved to {}: {}", path.display(), msg.lines().next().unwrap_or("")),
                Err(e) => println!("  crash (not saved: {e}): {msg}"),
            }
        }
    }
    targets::clean_temp();
    if total_crashes > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Runs `t` once on each file, printing the panic message of those that crash.
fn replay(t: &Target, files: &[String]) -> ExitCode {
    let _ = std::panic::take_hook();
    let mut failed = false;
    for f in files {
        let data = match std::fs::read(f) {
            Ok(d) => d,
            Err(e) => return usage(&format!("cannot read {f}: {e}")),
        };
        engine::quiet_panics();
        match engine::run_one(t, &data) {
            None => println!("{f}: ok"),
            Some(msg) => {
                failed = true;
                println!("{f}: CRASH: {msg}");
            }
        }
    }
    targets::clean_temp();
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
