//! Ports for the servers a test starts as child processes, which bind them themselves.
//!
//! A port found by binding port 0 and closing the socket is free only for a moment: until the
//! child binds it, the kernel may give it to any other `bind(0)` (another test's "free" port,
//! a `redis-server` another test starts there) or use it as the local end of an outgoing
//! connection. One run lost that race: the balancer's port was also a `redis-server`'s, the
//! balancer could not bind it, and the test's request went to Redis, which closed it.
//!
//! So a port is handed out from outside the kernel's ephemeral range
//! (`/proc/sys/net/ipv4/ip_local_port_range`), which neither `bind(0)` nor `connect()` ever
//! picks; reserved for the whole life of the test process by an exclusive lock on a file named
//! after it in the temporary folder's `mcp-test-ports` (a concurrent run of these tests skips
//! it; the lock goes with the process); and only if it can be bound right now.

#![allow(dead_code, unreachable_pub)]

use std::fs::{File, OpenOptions};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

/// The locked files that reserve the ports this process holds.
static HELD: Mutex<Vec<File>> = Mutex::new(Vec::new());
/// How far along the range the next search starts: each moves on from the last, and every
/// process starts at the range's low end, so that the lock files are the same few every run.
static CURSOR: AtomicU32 = AtomicU32::new(0);

/// A port of 127.0.0.1 that is free now and that no other test (of this process, or of a
/// concurrent run of these tests) is given until this process ends.
pub fn free_port() -> u16 {
    let (low, high) = range();
    let span = u32::from(high - low) + 1;
    for _ in 0..span {
        let port = low + (CURSOR.fetch_add(1, Ordering::Relaxed) % span) as u16;
        if let Some(lock) = reserve(port)
            && TcpListener::bind(("127.0.0.1", port)).is_ok()
        {
            HELD.lock().unwrap().push(lock);
            return port;
        }
    }
    panic!("no free port of 127.0.0.1 in {low}..={high}")
}

/// The ports to hand out: those below the ephemeral range down to 10000, or above it if that
/// leaves too few.
fn range() -> (u16, u16) {
    let (ephemeral_low, ephemeral_high) =
        std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
            .ok()
            .and_then(|text| {
                let mut bounds = text.split_whitespace().map(str::parse::<u16>);
                Some((bounds.next()?.ok()?, bounds.next()?.ok()?))
            })
            .unwrap_or((32768, 60999));
    if ephemeral_low > 11000 {
        (10000, ephemeral_low - 1)
    } else if ephemeral_high < 64000 {
        (ephemeral_high + 1, 65535)
    } else {
        panic!(
            "the ephemeral port range {ephemeral_low}-{ephemeral_high} leaves no room for the \
             tests' ports"
        )
    }
}

/// The exclusive lock on `port`'s file, if no one holds it.
fn reserve(port: u16) -> Option<File> {
    let folder: PathBuf = std::env::temp_dir().join("mcp-test-ports");
    std::fs::create_dir_all(&folder).expect("the ports' lock folder");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(folder.join(port.to_string()))
        .expect("a port's lock file");
    file.try_lock().ok().map(|()| file)
}
