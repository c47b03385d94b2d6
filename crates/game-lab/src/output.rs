//! Output files that are never seen half-written and never shared: each
//! output is written to `PATH.partial` in its own directory, under an
//! exclusive advisory lock (`flock`), and renamed to `PATH` when complete.
//! A run that dies leaves `PATH` as it was (old or absent) and at most a
//! `PATH.partial`, which `selfplay --resume` continues and every other run
//! replaces.
//!
//! Special files (`/dev/null`, `/dev/full`, a FIFO) cannot be replaced
//! atomically: they are written directly, without temporary file or lock,
//! and need no `--force`.
//!
//! Before any work, [`check_distinct`] resolves every path (symbolic links,
//! `./a.csv` against `a.csv`, hard links by device and inode) and refuses
//! two roles that name the same file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The error of this module's functions.
type Error = OutputError;

/// Why an output cannot be opened, written or committed: one line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputError {
    /// Reading, creating or writing a file failed.
    Io {
        /// What was being done: `read`, `create`, `write`…
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// An output exists and may not be replaced.
    Exists {
        /// The file.
        path: PathBuf,
        /// Whether `--resume` could continue it.
        resumable: bool,
    },
    /// An interrupted run left the temporary file of an output.
    PartialExists {
        /// The output.
        path: PathBuf,
        /// Its temporary file.
        partial: PathBuf,
    },
    /// Another run is writing the output.
    Locked {
        /// The output.
        path: PathBuf,
        /// The file whose lock is held.
        lock: PathBuf,
    },
    /// Two roles name the same file.
    Alias {
        /// The first role and its path (`--out a.csv`).
        first: String,
        /// The second one.
        second: String,
    },
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Io { what, path, message } => write!(f, "cannot {what} {}: {message}", path.display()),
            OutputError::Exists { path, resumable: true } => {
                write!(f, "{} already exists; pass --force to overwrite it or --resume to continue it", path.display())
            }
            OutputError::Exists { path, resumable: false } => {
                write!(f, "{} already exists; pass --force to overwrite it", path.display())
            }
            OutputError::PartialExists { path, partial } => write!(
                f,
                "{} is left by an interrupted run writing {}; pass --resume to continue it or --force to start over",
                partial.display(),
                path.display()
            ),
            OutputError::Locked { path, lock } => write!(
                f,
                "{} is being written by another running senat ({} is locked); wait for it or stop it",
                path.display(),
                lock.display()
            ),
            OutputError::Alias { first, second } => {
                write!(f, "{first} and {second} name the same file; give each role its own file")
            }
        }
    }
}

impl std::error::Error for OutputError {}

/// One CSV record with its line end, quoted as every file of the lab is
/// (the csv crate's rules: a field is quoted when it holds a comma, a quote
/// or a line end).
pub fn csv_record<S: AsRef<str>>(fields: &[S]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(fields.iter().map(|f| f.as_ref())).expect("writing to memory cannot fail");
    w.into_inner().expect("writing to memory cannot fail")
}

/// The temporary name of an output: `PATH.partial`, in the same directory.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// Where a path leads: the resolved target (symbolic links followed), its
/// temporary name, and what is there now.
#[derive(Clone, Debug)]
pub struct Located {
    /// The path as the user gave it (for messages).
    pub shown: PathBuf,
    /// The absolute path of the file (existing or to be created).
    pub target: PathBuf,
    /// Metadata of the existing file, if any.
    pub meta: Option<std::fs::Metadata>,
}

impl Located {
    /// Resolves `path`; fails when its directory does not exist or it is a
    /// dangling symbolic link.
    pub fn new(path: &Path) -> Result<Located, Error> {
        let shown = path.to_path_buf();
        let create_err = |e: io::Error| Error::Io { what: "create", path: shown.clone(), message: e.to_string() };
        match std::fs::symlink_metadata(path) {
            Ok(_) => {
                let meta = std::fs::metadata(path).map_err(|e| Error::Io {
                    what: "use",
                    path: shown.clone(),
                    message: format!("a symbolic link to nothing ({e})"),
                })?;
                let target = std::fs::canonicalize(path).map_err(create_err)?;
                Ok(Located { shown, target, meta: Some(meta) })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let name = path.file_name().ok_or_else(|| Error::Io {
                    what: "create",
                    path: shown.clone(),
                    message: "not a file name".into(),
                })?;
                let parent = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let dir = std::fs::canonicalize(parent).map_err(create_err)?;
                if !dir.is_dir() {
                    return Err(create_err(io::Error::other(format!("{} is not a directory", parent.display()))));
                }
                Ok(Located { shown, target: dir.join(name), meta: None })
            }
            Err(e) => Err(Error::Io { what: "create", path: shown, message: e.to_string() }),
        }
    }

    /// Whether the path names an existing regular file.
    pub fn is_file(&self) -> bool {
        self.meta.as_ref().is_some_and(|m| m.is_file())
    }

    /// Whether the path names an existing special file (device, FIFO, socket).
    pub fn is_special(&self) -> bool {
        self.meta.as_ref().is_some_and(|m| !m.is_file() && !m.is_dir())
    }

    /// The temporary file of this target.
    pub fn partial(&self) -> PathBuf {
        partial_path(&self.target)
    }

    /// Identities that another role must not share: the resolved paths of
    /// the file and its temporary file, and the device and inode of what
    /// exists.
    fn keys(&self, with_partial: bool) -> Vec<Key> {
        let mut k = vec![Key::Path(self.target.clone())];
        if with_partial {
            k.push(Key::Path(self.partial()));
        }
        if let Some(m) = &self.meta {
            k.extend(inode(m));
        }
        if with_partial && let Ok(m) = std::fs::metadata(self.partial()) {
            k.extend(inode(&m));
        }
        k
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Key {
    Path(PathBuf),
    Inode(u64, u64),
}

#[cfg(unix)]
fn inode(m: &std::fs::Metadata) -> Option<Key> {
    use std::os::unix::fs::MetadataExt;
    Some(Key::Inode(m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn inode(_: &std::fs::Metadata) -> Option<Key> {
    None
}

/// Refuses any two roles naming the same file: two outputs, or an input
/// and an output (inputs may not repeat either). Roles are `(name, path)`,
/// e.g. `("--out", "games.csv")`. Inputs must exist; outputs' directories
/// must.
pub fn check_distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<(), Error> {
    let mut seen: Vec<(Vec<Key>, String)> = Vec::new();
    let roles = inputs.iter().map(|r| (r, false)).chain(outputs.iter().map(|r| (r, true)));
    for (&(role, path), output) in roles {
        let loc = if output {
            Located::new(path)?
        } else {
            let io = |e: io::Error| Error::Io { what: "read", path: path.into(), message: e.to_string() };
            let meta = std::fs::metadata(path).map_err(io)?;
            Located { shown: path.into(), target: std::fs::canonicalize(path).map_err(io)?, meta: Some(meta) }
        };
        let keys = loc.keys(output);
        let name = format!("{role} {}", path.display());
        if let Some((_, first)) = seen.iter().find(|(other, _)| keys.iter().any(|k| other.contains(k))) {
            return Err(Error::Alias { first: first.clone(), second: name });
        }
        seen.push((keys, name));
    }
    Ok(())
}

/// An output being written.
#[derive(Debug)]
pub struct OutFile {
    shown: PathBuf,
    target: PathBuf,
    /// The temporary file renamed to `target` by [`OutFile::commit`]
    /// (`None`: writing in place, to a special file or a resumed file).
    temp: Option<PathBuf>,
    file: File,
    /// The lock on an existing target, held for the run.
    _target_lock: Option<File>,
    /// Keep the temporary file if the run fails (a resumable games file).
    keep: bool,
    done: bool,
}

/// What to do when an output exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IfExists {
    /// Refuse (the error says `--force`, and `--resume` when `resumable`).
    Refuse {
        /// Whether `--resume` can continue the file.
        resumable: bool,
    },
    /// Replace it at the end.
    Overwrite,
}

fn lock(f: &File, shown: &Path, locked: &Path) -> Result<(), Error> {
    match f.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(Error::Locked { path: shown.to_path_buf(), lock: locked.to_path_buf() })
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(Error::Io { what: "lock", path: locked.to_path_buf(), message: e.to_string() })
        }
    }
}

impl OutFile {
    /// Starts a fresh output at `path`: the temporary file is created (so an
    /// unwritable output fails here, before any work) and locked; an
    /// existing `path` is locked too, so that two runs never write one file.
    pub fn create(path: &Path, if_exists: IfExists) -> Result<OutFile, Error> {
        let loc = Located::new(path)?;
        let exists_err = |resumable| Error::Exists { path: path.to_path_buf(), resumable };
        if loc.is_special() {
            let file = OpenOptions::new().write(true).open(&loc.target).map_err(|e| Error::Io {
                what: "open",
                path: path.into(),
                message: e.to_string(),
            })?;
            return Ok(OutFile {
                shown: loc.shown,
                target: loc.target,
                temp: None,
                file,
                _target_lock: None,
                keep: false,
                done: false,
            });
        }
        let mut target_lock = None;
        if loc.meta.is_some() {
            if !loc.is_file() {
                return Err(Error::Io { what: "write", path: path.into(), message: "it is a directory".into() });
            }
            if let IfExists::Refuse { resumable } = if_exists {
                return Err(exists_err(resumable));
            }
            let f = File::open(&loc.target).map_err(|e| Error::Io {
                what: "open",
                path: path.into(),
                message: e.to_string(),
            })?;
            lock(&f, path, path)?;
            target_lock = Some(f);
        }
        let temp = loc.partial();
        if let IfExists::Refuse { resumable: true } = if_exists
            && temp.exists()
        {
            // A run that holds its lock is writing it now; only an unlocked
            // one was left by an interrupted run.
            if let Ok(f) = File::open(&temp) {
                lock(&f, path, &partial_path(path))?;
            }
            return Err(Error::PartialExists { path: path.to_path_buf(), partial: partial_path(path) });
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&temp)
            .map_err(|e| Error::Io { what: "create", path: path.into(), message: e.to_string() })?;
        lock(&file, path, &partial_path(path))?;
        file.set_len(0).map_err(|e| Error::Io { what: "create", path: partial_path(path), message: e.to_string() })?;
        Ok(OutFile {
            shown: loc.shown,
            target: loc.target,
            temp: Some(temp),
            file,
            _target_lock: target_lock,
            keep: false,
            done: false,
        })
    }

    /// Opens an existing file to continue it (read and write, locked):
    /// `actual` is `path` itself or its `.partial` file, which
    /// [`OutFile::commit`] renames to `path`.
    pub fn resume(path: &Path, actual: &Path) -> Result<OutFile, Error> {
        let loc = Located::new(path)?;
        let file = OpenOptions::new().read(true).write(true).open(actual).map_err(|e| Error::Io {
            what: "open",
            path: actual.into(),
            message: e.to_string(),
        })?;
        lock(&file, path, actual)?;
        let in_place = actual == path;
        let temp = (!in_place).then(|| loc.partial());
        Ok(OutFile { shown: loc.shown, target: loc.target, temp, file, _target_lock: None, keep: true, done: false })
    }

    /// The path as the user named it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The file being written (the temporary file, or the target itself).
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// The path of the file being written.
    pub fn writing(&self) -> &Path {
        self.temp.as_deref().unwrap_or(&self.target)
    }

    /// Keeps the temporary file if the run fails from now on (it can be
    /// continued with `--resume`).
    pub fn keep_on_failure(&mut self) {
        self.keep = true;
    }

    /// Writes all of `bytes`; the error names the output.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let shown = &self.shown;
        self.file.write_all(bytes).map_err(|e| Error::Io { what: "write", path: shown.clone(), message: e.to_string() })
    }

    /// Writes one CSV record ([`csv_record`]); the error names the output.
    pub fn write_record<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<(), Error> {
        self.write_all(&csv_record(fields))
    }

    /// Flushes the file to disk and renames the temporary file into place
    /// (the transaction of [`commit_all`] with this file alone).
    pub fn commit(self) -> Result<(), Error> {
        commit_all(vec![self])
    }

    /// Flushes a regular file to disk (a special file was written through).
    fn sync(&mut self) -> Result<(), Error> {
        if self.file.metadata().is_ok_and(|m| m.is_file()) {
            self.file.sync_data().map_err(|e| Error::Io {
                what: "write",
                path: self.shown.clone(),
                message: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// Renames the temporary file into place, if any.
    fn rename(&mut self) -> Result<(), Error> {
        if let Some(temp) = &self.temp {
            std::fs::rename(temp, &self.target).map_err(|e| Error::Io {
                what: "write",
                path: self.shown.clone(),
                message: e.to_string(),
            })?;
            if let Some(dir) = self.target.parent()
                && let Ok(d) = File::open(dir)
            {
                let _ = d.sync_all();
            }
        }
        self.done = true;
        Ok(())
    }
}

/// Commits the outputs of one command together, once every one of them has
/// been written: each is flushed to disk first, and only when all of that
/// succeeded are the temporary files renamed into place, in the order
/// given (companions before the games file they go with). A special file
/// was written through as it was written, so a failure there (`/dev/full`)
/// has already failed the command before this, leaving every regular
/// output as it was (old or absent); a failed flush leaves them so too.
pub fn commit_all(mut files: Vec<OutFile>) -> Result<(), Error> {
    for f in &mut files {
        f.sync()?;
    }
    for f in &mut files {
        f.rename()?;
    }
    Ok(())
}

impl Drop for OutFile {
    fn drop(&mut self) {
        if !self.done
            && !self.keep
            && let Some(temp) = &self.temp
        {
            let _ = std::fs::remove_file(temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_found() {
        let dir = std::env::temp_dir().join(format!("senat-output-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.csv");
        let dotted = dir.join(".").join("a.csv");
        std::fs::write(&a, "x\n").unwrap();
        let b = dir.join("b.csv");
        assert!(check_distinct(&[("input", &a)], &[("--out", &b)]).is_ok());
        let err = check_distinct(&[("input", &a)], &[("--out", &dotted)]).unwrap_err();
        assert!(matches!(err, Error::Alias { .. }), "{err}");
        // An output and another output's temporary file.
        let err = check_distinct(&[], &[("--out", &b), ("--summary", &partial_path(&b))]).unwrap_err();
        assert!(matches!(err, Error::Alias { .. }), "{err}");
        assert_eq!(partial_path(Path::new("x/g.csv")), Path::new("x/g.csv.partial"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_output_leaves_nothing_and_a_committed_one_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("senat-output-unit2-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("o.csv");
        std::fs::write(&p, "old\n").unwrap();
        assert!(matches!(OutFile::create(&p, IfExists::Refuse { resumable: false }), Err(Error::Exists { .. })));
        {
            let mut f = OutFile::create(&p, IfExists::Overwrite).unwrap();
            f.write_all(b"half").unwrap();
            // A second writer is refused while the first holds the lock.
            assert!(matches!(OutFile::create(&p, IfExists::Overwrite), Err(Error::Locked { .. })));
        }
        assert_eq!(std::fs::read(&p).unwrap(), b"old\n");
        assert!(!partial_path(&p).exists());
        let mut f = OutFile::create(&p, IfExists::Overwrite).unwrap();
        f.write_all(b"new\n").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new\n");
        assert!(!partial_path(&p).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
