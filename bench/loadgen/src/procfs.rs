//! What /proc says about the server process.

use std::sync::OnceLock;

/// The process's CPU time so far (user + system, every thread, live or ended), in seconds,
/// to the nanosecond: its CPU-time clock (`clock_getcpuclockid`), which the scheduler keeps
/// exactly. /proc/PID/stat's fields 14 and 15 count whole clock ticks (10 ms): over a
/// scenario of 20,000 calls that is half a microsecond per call either way, the size of what
/// the per-call figures compare. Those ticks remain the fallback where the clock cannot be read.
pub fn cpu_seconds(pid: u32) -> f64 {
    cpu_clock_seconds(pid).unwrap_or_else(|| cpu_ticks_seconds(pid))
}

/// The process's CPU-time clock, read from outside it.
fn cpu_clock_seconds(pid: u32) -> Option<f64> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    let mut clock: libc::clockid_t = 0;
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls only write through the pointers given, which point at live locals
    // of the right types; an unknown or ended process is an error return, not undefined.
    let read = unsafe {
        libc::clock_getcpuclockid(pid, &mut clock) == 0 && libc::clock_gettime(clock, &mut now) == 0
    };
    read.then_some(now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9)
}

/// Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux).
fn ticks_per_second() -> f64 {
    static TICKS: OnceLock<f64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The process's CPU time in whole clock ticks: fields 14 and 15 of /proc/PID/stat.
fn cpu_ticks_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return f64::NAN;
    };
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let Some(rest) = stat.rfind(')').map(|at| &stat[at + 2..]) else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state), so field N is fields[N - 3].
    let ticks = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<f64>().ok());
    match (ticks(14), ticks(15)) {
        (Some(user), Some(system)) => (user + system) / ticks_per_second(),
        _ => f64::NAN,
    }
}

/// The process's peak resident set size in KiB (`VmHWM` of /proc/PID/status).
pub fn peak_rss_kib(pid: u32) -> f64 {
    status_kib(pid, "VmHWM:")
}

/// The process's resident set size now, in KiB (`VmRSS` of /proc/PID/status).
pub fn rss_kib(pid: u32) -> f64 {
    status_kib(pid, "VmRSS:")
}

fn status_kib(pid: u32, field: &str) -> f64 {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return f64::NAN;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(f64::NAN)
}
