//! Rotation without a restart: a key file watched for changes (issue 15).
//!
//! The file is looked at lazily, by the `seal` and `open` calls themselves, at most once per
//! second of the `now` they are given: no task, no runtime needed, and a server that seals
//! nothing reads nothing. Looking is one `stat`; the file is read again only when its
//! modification time, length or inode changed (an editor's save, a rename into place, a
//! Kubernetes secret's symlink swap), and once more a second later if it changed within the
//! last two seconds (a write the `stat` may have caught half done, or a second write in the
//! same clock tick).
//!
//! A new first line becomes the key that seals; the other lines open. A key that disappeared
//! keeps opening (never sealing) for the grace period, counted from the first `seal` or `open`
//! that saw the change, so state sealed just before a rotation still opens on every instance.
//! A file that becomes unreadable or invalid (an empty file, a bad line) changes nothing: the
//! keys read before stay in use, and one stderr line says why (again only if the reason
//! changes).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, TryLockError};
use std::time::{Duration, SystemTime};

use super::clock::unix_ms;
use super::error::StateKeysError;
use super::key_file;
use super::ring::Ring;
use crate::limit_log::LimitLog;

/// How often the file is looked at, at most.
const CHECK_EVERY_MS: u64 = 1000;
/// A file changed more recently than this is read again at the next check.
const SETTLING: Duration = Duration::from_secs(2);

/// A key file and the ring it gave last.
pub(super) struct WatchedFile {
    path: PathBuf,
    grace: Duration,
    ring: RwLock<Arc<Ring>>,
    /// The `now` (ms since the epoch) of the last check.
    last_check_ms: AtomicU64,
    seen: Mutex<Seen>,
}

/// What the last checks found.
struct Seen {
    /// The file's version whose keys are in use (or were found invalid); `None` to read again.
    version: Option<FileVersion>,
    /// The last problem written to stderr, while the file stays unusable.
    reported: Option<String>,
}

/// What tells that a file changed, short of reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileVersion {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

impl FileVersion {
    fn of(path: &Path) -> std::io::Result<FileVersion> {
        let metadata = std::fs::metadata(path)?;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
        #[cfg(not(unix))]
        let inode = 0;
        Ok(FileVersion {
            modified: metadata.modified().ok(),
            len: metadata.len(),
            inode,
        })
    }

    /// Changed so recently that another change may follow unseen within the same clock tick.
    /// (A modification time in the future, from another machine's clock, is not settling: the
    /// file would otherwise never be judged.)
    fn settling(&self) -> bool {
        self.modified.is_some_and(|modified| {
            SystemTime::now()
                .duration_since(modified)
                .is_ok_and(|age| age < SETTLING)
        })
    }
}

impl WatchedFile {
    /// Reads the file, which must be valid now.
    pub(super) fn open(path: &Path, grace: Duration) -> Result<WatchedFile, StateKeysError> {
        // The version before the read: a change during the read is seen at the next check.
        let version = FileVersion::of(path).ok().filter(|v| !v.settling());
        let keys = key_file::read_file(path)?;
        let ring = Ring::new(&keys).expect("a key file read without error holds a key");
        Ok(WatchedFile {
            path: path.to_owned(),
            grace,
            ring: RwLock::new(Arc::new(ring)),
            last_check_ms: AtomicU64::new(0),
            seen: Mutex::new(Seen {
                version,
                reported: None,
            }),
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// The ring at `now`, after looking at the file if a second has passed.
    pub(super) fn ring(&self, now: SystemTime) -> Arc<Ring> {
        self.check(now);
        self.last_ring()
    }

    /// The ring as the last check left it.
    pub(super) fn last_ring(&self) -> Arc<Ring> {
        Arc::clone(&self.ring.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn check(&self, now: SystemTime) {
        let now_ms = unix_ms(now);
        let last = self.last_check_ms.load(Ordering::Relaxed);
        // `abs_diff`: callers' clocks may disagree a little, and a clock set back must not
        // stop the checks.
        if now_ms.abs_diff(last) < CHECK_EVERY_MS
            || self
                .last_check_ms
                .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let mut seen = match self.seen.try_lock() {
            Ok(seen) => seen,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            // Another caller is checking.
            Err(TryLockError::WouldBlock) => return,
        };
        self.reload(&mut seen, now);
    }

    fn reload(&self, seen: &mut Seen, now: SystemTime) {
        let version = match FileVersion::of(&self.path) {
            Ok(version) => version,
            Err(error) => {
                // Whatever comes back is read again.
                seen.version = None;
                let problem = format!("cannot read {}: {error}", self.path.display());
                return report(seen, problem);
            }
        };
        if seen.version.as_ref() == Some(&version) {
            return;
        }
        let settling = version.settling();
        let keys = match key_file::read_file(&self.path) {
            Ok(keys) => keys,
            // Perhaps half written: read again at the next check before saying anything.
            Err(_) if settling => return,
            Err(error) => {
                seen.version = Some(version);
                return report(seen, error.to_string());
            }
        };
        seen.version = (!settling).then_some(version);
        let recovered = seen.reported.take().is_some();
        let mut ring = self.ring.write().unwrap_or_else(PoisonError::into_inner);
        if ring.lists(&keys) {
            if recovered {
                crate::stderr::line(format_args!(
                    "mcp: state key file {} is valid again; its keys are unchanged",
                    self.path.display()
                ));
            }
            return;
        }
        *ring = Arc::new(ring.rotated(&keys, now, self.grace));
        crate::stderr::line(format_args!(
            "mcp: state keys read again from {}: {ring:?}",
            self.path.display()
        ));
    }
}

/// Writes `problem` to stderr unless it is the one written last.
fn report(seen: &mut Seen, problem: String) {
    static UNUSABLE: LimitLog = LimitLog::new();
    if seen.reported.as_ref() == Some(&problem) {
        return;
    }
    UNUSABLE.hit(|| format!("state key file not used, the keys read before stay: {problem}"));
    seen.reported = Some(problem);
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_1: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
    const KEY_2: &str = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=";

    /// Writes `text` with a modification time `age` ago, as a file written earlier would be.
    fn write_aged(path: &Path, text: &str, age: Duration) {
        std::fs::write(path, text).unwrap();
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
    }

    fn reported(watched: &WatchedFile) -> Option<String> {
        watched.seen.lock().unwrap().reported.clone()
    }

    #[test]
    fn an_invalid_file_is_reported_once_and_its_keys_are_not_taken() {
        let path =
            std::env::temp_dir().join(format!("mcp-runtime-rotation-{}", std::process::id()));
        write_aged(&path, KEY_1, Duration::from_secs(60));
        let watched = WatchedFile::open(&path, Duration::from_secs(60)).unwrap();
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let before = watched.ring(t0);
        assert_eq!(reported(&watched), None);

        write_aged(&path, &format!("{KEY_2}\nAQID\n"), Duration::from_secs(30));
        let ring = watched.ring(t0 + Duration::from_secs(1));
        assert_eq!(ring.current().id, before.current().id, "the old keys stay");
        let problem = reported(&watched).expect("the problem is reported");
        assert!(
            problem.contains("line 2: the key is 3 bytes long"),
            "{problem}"
        );
        // The same file is not read again: nothing more to report.
        let version = watched.seen.lock().unwrap().version.clone();
        assert!(version.is_some());
        watched.ring(t0 + Duration::from_secs(2));
        assert_eq!(watched.seen.lock().unwrap().version, version);

        // Gone: reported (once), old keys still.
        std::fs::remove_file(&path).unwrap();
        let ring = watched.ring(t0 + Duration::from_secs(3));
        assert_eq!(ring.current().id, before.current().id);
        assert!(reported(&watched).unwrap().contains("cannot read"));

        // Valid again: taken, and nothing is reported any more.
        write_aged(
            &path,
            &format!("{KEY_2}\n{KEY_1}\n"),
            Duration::from_secs(10),
        );
        let ring = watched.ring(t0 + Duration::from_secs(4));
        assert_ne!(ring.current().id, before.current().id);
        assert_eq!(reported(&watched), None);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_still_settling_is_read_again_at_the_next_check() {
        let path =
            std::env::temp_dir().join(format!("mcp-runtime-settling-{}", std::process::id()));
        write_aged(&path, KEY_1, Duration::from_secs(60));
        let watched = WatchedFile::open(&path, Duration::from_secs(60)).unwrap();
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        watched.ring(t0);
        assert!(watched.seen.lock().unwrap().version.is_some());
        // Just written, and half written: not reported, not recorded, looked at again.
        std::fs::write(&path, &KEY_2[..20]).unwrap();
        let ring = watched.ring(t0 + Duration::from_secs(1));
        assert_eq!(reported(&watched), None);
        assert!(watched.seen.lock().unwrap().version.is_some());
        std::fs::write(&path, KEY_2).unwrap();
        let now = ring.current().id;
        let ring = watched.ring(t0 + Duration::from_secs(2));
        assert_ne!(ring.current().id, now, "the finished write is taken");
        // Taken while settling: its version is not recorded, so the next check reads again.
        assert_eq!(watched.seen.lock().unwrap().version, None);
        std::fs::remove_file(&path).unwrap();
    }
}
