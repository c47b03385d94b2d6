//! Running the built `senat` binary from integration tests: the command,
//! its output as text, the success and the one-line-error expectations, and
//! temporary files removed on drop. Shared by every test file that drives
//! the binary (`mod support { pub mod cli; }`); files.rs has the folders.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built `senat` binary as a command, to add arguments, stdin, a directory.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_senat"))
}

/// Runs `senat` with `args`.
pub fn senat(args: &[&str]) -> Output {
    bin().args(args).output().expect("the senat binary runs")
}

/// Runs `senat` with `args` in the directory `dir`.
pub fn senat_in(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().expect("the senat binary runs")
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Expects `o` (of `senat args`) to have succeeded; returns stdout.
pub fn expect_ok(o: &Output, args: &[&str]) -> String {
    assert!(o.status.success(), "senat {args:?} failed: {}", stderr(o));
    stdout(o)
}

/// Expects `o` (of `senat args`) to have failed with exit code 2 and one
/// `senat: error:` line; returns it.
pub fn expect_error(o: &Output, args: &[&str]) -> String {
    assert_eq!(o.status.code(), Some(2), "senat {args:?}: stdout {} stderr {}", stdout(o), stderr(o));
    let err = stderr(o);
    assert!(err.starts_with("senat: error: "), "senat {args:?}: stderr {err:?}");
    assert_eq!(err.lines().count(), 1, "senat {args:?}: stderr {err:?}");
    err
}

/// Runs `senat` with `args` and expects success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    expect_ok(&senat(args), args)
}

/// Runs `senat` with `args` in `dir` and expects success; returns stdout.
pub fn ok_in(dir: &Path, args: &[&str]) -> String {
    expect_ok(&senat_in(dir, args), args)
}

/// Runs `senat` with `args` and expects exit code 2 and one `senat: error:` line; returns it.
pub fn fails(args: &[&str]) -> String {
    expect_error(&senat(args), args)
}

/// Like [`fails`], in the directory `dir`.
pub fn fails_in(dir: &Path, args: &[&str]) -> String {
    expect_error(&senat_in(dir, args), args)
}

/// A file with given contents in the temporary directory, removed on drop.
pub struct TempRecord(pub PathBuf);

impl TempRecord {
    /// Writes `text` to a fresh temporary file named after `name` and the process.
    pub fn new(name: &str, text: &str) -> TempRecord {
        TempRecord::bytes(name, text.as_bytes())
    }

    /// Writes raw `bytes` to a fresh temporary file.
    pub fn bytes(name: &str, bytes: &[u8]) -> TempRecord {
        let path = std::env::temp_dir().join(format!("senat-cli-{}-{name}.txt", std::process::id()));
        std::fs::write(&path, bytes).expect("temporary record written");
        TempRecord(path)
    }

    /// The path as text.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temporary path")
    }
}

impl Drop for TempRecord {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
