//! Files for integration tests: a temporary folder removed on drop, a
//! fresh folder under the target directory, waiting for a condition, and
//! counting the rows of a games file (`mod support { pub mod files; }`).

#![allow(dead_code)]

use std::path::PathBuf;

/// A fresh, empty folder for one test under cargo's target tmp directory,
/// `<prefix>-<name>` (kept after the test for inspection).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("test folder created");
    d
}

/// A fresh temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("senat-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.0.join(name)).unwrap_or_else(|e| panic!("read {name}: {e}"))
    }
    pub fn text(&self, name: &str) -> String {
        String::from_utf8(self.read(name)).expect("UTF-8")
    }
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) {
        std::fs::write(self.0.join(name), bytes).unwrap_or_else(|e| panic!("write {name}: {e}"))
    }
    pub fn exists(&self, name: &str) -> bool {
        self.0.join(name).exists()
    }
    /// The file names in the directory, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .expect("read dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Waits (up to 60 s) until `cond` holds, polling every millisecond.
pub fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !cond() {
        assert!(start.elapsed().as_secs() < 60, "timed out waiting for {what}");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Complete rows of a games file (lines after the identity line and the header).
pub fn rows(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count().saturating_sub(2)
}
