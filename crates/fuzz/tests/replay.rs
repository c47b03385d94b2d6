//! Replays the corpus and every saved crash (`regressions/<target>/`)
//! through its target, and runs a short fixed fuzz of each target, so that
//! a crash once found stays fixed.

use std::time::Duration;

use senat_fuzz::engine;
use senat_fuzz::targets::{all, target};

/// Every file under `corpus/<target>/` and `regressions/<target>/` runs clean.
#[test]
fn corpus_and_regressions_replay() {
    for dir in [engine::corpus_dir(), engine::regressions_dir()] {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            let t = target(&name).unwrap_or_else(|| panic!("{}: no target named {name}", dir.display()));
            for (file, data) in engine::read_dir_files(&e.path()) {
                eprintln!("{name}/{file}");
                (t.run)(&data);
            }
        }
    }
}

/// Each target has corpus seeds.
#[test]
fn every_target_has_seeds() {
    for t in all() {
        assert!(!engine::read_dir_files(&engine::corpus_dir().join(t.name)).is_empty(), "no corpus for {}", t.name);
    }
}

/// A short deterministic fuzz of every target (the CI run is longer).
#[test]
fn short_fuzz() {
    engine::quiet_panics();
    let mut found = Vec::new();
    for t in all() {
        let r = engine::fuzz(t, &engine::seeds_of(t), 42, 200, Duration::from_secs(3));
        for (msg, data) in r.distinct {
            found.push(format!("{}: {msg}\n  input: {:?}", t.name, String::from_utf8_lossy(&data)));
        }
    }
    let _ = std::panic::take_hook();
    senat_fuzz::targets::clean_temp();
    assert!(found.is_empty(), "crashes:\n{}", found.join("\n"));
}
