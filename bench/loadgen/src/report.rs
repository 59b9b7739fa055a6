//! The tables of BENCHMARKS.md, from the `label mode rep metric value` lines of a run.

use std::collections::BTreeMap;

/// The servers, in table order; the first is the floor ratios are taken to.
const SERVERS: [&str; 5] = ["floor", "ours", "rmcp", "rmcp-pipes", "rmcp-fast"];
/// The builds, in table order.
const BUILDS: [&str; 5] = ["floor", "ours", "rmcp", "ours50", "rmcp50"];

/// The runtime metrics, in table order, with how to read them.
const METRICS: [(&str, &str); 20] = [
    (
        "add@1.cpu_us",
        "server CPU per `add` call, 1 in flight (us)",
    ),
    (
        "summarize@1.cpu_us",
        "server CPU per `summarize` call, 1 in flight (us)",
    ),
    (
        "add@64.cpu_us",
        "server CPU per `add` call, 64 in flight (us)",
    ),
    (
        "summarize@64.cpu_us",
        "server CPU per `summarize` call, 64 in flight (us)",
    ),
    ("add@64.rps", "`add` throughput, 64 in flight (calls/s)"),
    (
        "summarize@64.rps",
        "`summarize` throughput, 64 in flight (calls/s)",
    ),
    ("add@1.rps", "`add` throughput, 1 in flight (calls/s)"),
    ("add@1.p50_us", "`add` latency p50, 1 in flight (us)"),
    ("add@1.p99_us", "`add` latency p99, 1 in flight (us)"),
    ("echo@1.p50_us", "`echo` latency p50, 1 in flight (us)"),
    (
        "echo@1.cpu_us",
        "server CPU per `echo` call, 1 in flight (us)",
    ),
    (
        "summarize@1.p50_us",
        "`summarize` latency p50, 1 in flight (us)",
    ),
    (
        "summarize@1.p99_us",
        "`summarize` latency p99, 1 in flight (us)",
    ),
    ("list@1.p50_us", "`tools/list` latency p50 (us)"),
    ("list@1.cpu_us", "server CPU per `tools/list` (us)"),
    ("add@64.p50_us", "`add` latency p50, 64 in flight (us)"),
    ("add@64.p99_us", "`add` latency p99, 64 in flight (us)"),
    (
        "summarize@64.p99_us",
        "`summarize` latency p99, 64 in flight (us)",
    ),
    ("startup_us", "cold start, spawn to `initialize` reply (us)"),
    ("rss_kib", "peak RSS (KiB)"),
];

const BUILD_METRICS: [(&str, &str); 3] = [
    ("clean_s", "clean release build, dependencies included (s)"),
    (
        "rebuild_s",
        "release rebuild after touching the tools file (s)",
    ),
    ("size_kib", "stripped release binary (KiB)"),
];

type Key = (String, String, String);

struct Results {
    values: BTreeMap<Key, Vec<f64>>,
}

impl Results {
    fn get(&self, label: &str, mode: &str, metric: &str) -> Option<&[f64]> {
        self.values
            .get(&(label.to_owned(), mode.to_owned(), metric.to_owned()))
            .map(Vec::as_slice)
            .filter(|v| !v.is_empty())
    }

    fn median(&self, label: &str, mode: &str, metric: &str) -> Option<f64> {
        self.get(label, mode, metric).map(median)
    }

    /// `a / b` of the medians; `None` when either is missing or `b` is 0 (a CPU time below
    /// one clock tick).
    fn ratio(&self, a: &str, b: &str, mode: &str, metric: &str) -> Option<f64> {
        let ratio = self.median(a, mode, metric)? / self.median(b, mode, metric)?;
        ratio.is_finite().then_some(ratio)
    }

    fn cell(&self, label: &str, mode: &str, metric: &str) -> String {
        match self.get(label, mode, metric) {
            None => "-".to_owned(),
            Some(values) => {
                let (lo, hi) = values
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        (lo.min(*v), hi.max(*v))
                    });
                if values.len() == 1 {
                    number(values[0])
                } else {
                    format!("{} ({}–{})", number(median(values)), number(lo), number(hi))
                }
            }
        }
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn number(value: f64) -> String {
    if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

fn ratio_text(ratio: Option<f64>) -> String {
    ratio.map_or("-".to_owned(), |r| format!("{r:.2}x"))
}

pub fn print(files: &[String]) -> Result<(), String> {
    let mut values: BTreeMap<Key, Vec<f64>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let fields: Vec<&str> = line.split('\t').collect();
            let [label, mode, _rep, metric, value] = fields[..] else {
                return Err(format!("{file}: not `label mode rep metric value`: {line}"));
            };
            let value: f64 = value.parse().map_err(|e| format!("{file}: {line}: {e}"))?;
            if value.is_finite() {
                values
                    .entry((label.to_owned(), mode.to_owned(), metric.to_owned()))
                    .or_default()
                    .push(value);
            }
        }
    }
    let results = Results { values };
    print_targets(&results);
    print_fixed_layout(&results);
    print_ratios(&results);
    for mode in ["pinned", "unpinned"] {
        print_medians(&results, mode);
    }
    print_builds(&results);
    Ok(())
}

/// One target: `a / b` of `metric` in `mode`, against `goal` (`<=` or `>=`).
struct Target {
    what: &'static str,
    a: &'static str,
    b: &'static str,
    mode: &'static str,
    metric: &'static str,
    at_most: bool,
    goal: f64,
}

const TARGETS: [Target; 11] = [
    Target {
        what: "server CPU per `add` call, 1 in flight",
        a: "ours",
        b: "floor",
        mode: "pinned",
        metric: "add@1.cpu_us",
        at_most: true,
        goal: 1.5,
    },
    Target {
        what: "`add` throughput, 64 in flight, vs the floor",
        a: "ours",
        b: "floor",
        mode: "pinned",
        metric: "add@64.rps",
        at_most: false,
        goal: 0.5,
    },
    Target {
        what: "`add` throughput, 64 in flight, vs rmcp `stdio_pipes()` (rmcp-fast)",
        a: "ours",
        b: "rmcp-fast",
        mode: "pinned",
        metric: "add@64.rps",
        at_most: false,
        goal: 3.0,
    },
    Target {
        what: "`summarize` throughput, 64 in flight, vs the floor",
        a: "ours",
        b: "floor",
        mode: "pinned",
        metric: "summarize@64.rps",
        at_most: false,
        goal: 0.5,
    },
    Target {
        what: "`summarize` throughput, 64 in flight, vs rmcp `stdio_pipes()` (rmcp-fast)",
        a: "ours",
        b: "rmcp-fast",
        mode: "pinned",
        metric: "summarize@64.rps",
        at_most: false,
        goal: 3.0,
    },
    Target {
        what: "`tools/list` p50",
        a: "ours",
        b: "floor",
        mode: "pinned",
        metric: "list@1.p50_us",
        at_most: true,
        goal: 1.5,
    },
    Target {
        what: "cold start, spawn to `initialize` reply (unpinned)",
        a: "ours",
        b: "floor",
        mode: "unpinned",
        metric: "startup_us",
        at_most: true,
        goal: 1.2,
    },
    Target {
        what: "peak RSS",
        a: "ours",
        b: "floor",
        mode: "pinned",
        metric: "rss_kib",
        at_most: true,
        goal: 1.5,
    },
    Target {
        what: "stripped release binary, vs rmcp",
        a: "ours",
        b: "rmcp",
        mode: "build",
        metric: "size_kib",
        at_most: true,
        goal: 0.5,
    },
    Target {
        what: "release rebuild after touching the tools file, 3 tools, vs rmcp",
        a: "ours",
        b: "rmcp",
        mode: "build",
        metric: "rebuild_s",
        at_most: true,
        goal: 0.4,
    },
    Target {
        what: "release rebuild after touching the tools file, 50 tools, vs rmcp",
        a: "ours50",
        b: "rmcp50",
        mode: "build",
        metric: "rebuild_s",
        at_most: true,
        goal: 0.4,
    },
];

fn print_targets(results: &Results) {
    println!("### Targets\n");
    println!("| target | ours | ratio | goal | met |");
    println!("| --- | --- | --- | --- | --- |");
    let clean = Target {
        what: "clean release build, dependencies included, vs rmcp",
        a: "ours",
        b: "rmcp",
        mode: "build",
        metric: "clean_s",
        at_most: true,
        goal: 0.5,
    };
    for target in TARGETS.iter().chain(std::iter::once(&clean)) {
        let ratio = results.ratio(target.a, target.b, target.mode, target.metric);
        let met = match ratio {
            None => "not measured",
            Some(r)
                if (target.at_most && r <= target.goal)
                    || (!target.at_most && r >= target.goal) =>
            {
                "yes"
            }
            Some(_) => "**no**",
        };
        println!(
            "| {} | {} | {} | {} {}x {} | {met} |",
            target.what,
            results.cell(target.a, target.mode, target.metric),
            ratio_text(ratio),
            if target.at_most { "≤" } else { "≥" },
            target.goal,
            if target.b == "floor" {
                "the floor"
            } else {
                target.b
            },
        );
    }
    println!();
}

/// Peak RSS in one fixed address layout, the binary read afresh (`bench/run`'s `fixed-layout`
/// mode): where the kernel places a binary's pages, and in what blocks the page cache holds
/// them, move their resident share by tens of KiB from one start to the next; with both fixed
/// one binary reads the same figure every run. Beside the target, not instead of it.
fn print_fixed_layout(results: &Results) {
    let (Some(ours), Some(floor)) = (
        results.median("ours", FIXED_LAYOUT, "rss_kib"),
        results.median("floor", FIXED_LAYOUT, "rss_kib"),
    ) else {
        return;
    };
    println!(
        "Peak RSS in one fixed address layout, each binary read afresh from its file (`setarch -R`, pinned): ours {ours:.0} KiB, the floor {floor:.0} KiB, {:.2}x.\n",
        ours / floor
    );
}

/// The mode of the runs made with address randomization off.
const FIXED_LAYOUT: &str = "fixed-layout";

fn print_ratios(results: &Results) {
    for mode in ["pinned", "unpinned"] {
        println!("### Ratios to the floor (medians), {mode}\n");
        let mut header = "| metric |".to_owned();
        let mut rule = "| --- |".to_owned();
        for server in &SERVERS[1..] {
            header.push_str(&format!(" {server} |"));
            rule.push_str(" --- |");
        }
        println!("{header}\n{rule}");
        for (metric, what) in METRICS {
            let mut row = format!("| {what} |");
            for server in &SERVERS[1..] {
                row.push_str(&format!(
                    " {} |",
                    ratio_text(results.ratio(server, "floor", mode, metric))
                ));
            }
            println!("{row}");
        }
        println!();
    }
}

fn print_medians(results: &Results, mode: &str) {
    println!("### Medians (min–max), {mode}\n");
    let mut header = "| metric |".to_owned();
    let mut rule = "| --- |".to_owned();
    for server in SERVERS {
        header.push_str(&format!(" {server} |"));
        rule.push_str(" --- |");
    }
    println!("{header}\n{rule}");
    for (metric, what) in METRICS {
        let mut row = format!("| {what} |");
        for server in SERVERS {
            row.push_str(&format!(" {} |", results.cell(server, mode, metric)));
        }
        println!("{row}");
    }
    println!();
}

fn print_builds(results: &Results) {
    println!("### Builds\n");
    let mut header = "| metric |".to_owned();
    let mut rule = "| --- |".to_owned();
    for build in BUILDS {
        header.push_str(&format!(" {build} |"));
        rule.push_str(" --- |");
    }
    header.push_str(" ours/rmcp | ours50/rmcp50 |");
    rule.push_str(" --- | --- |");
    println!("{header}\n{rule}");
    for (metric, what) in BUILD_METRICS {
        let mut row = format!("| {what} |");
        for build in BUILDS {
            row.push_str(&format!(" {} |", results.cell(build, "build", metric)));
        }
        row.push_str(&format!(
            " {} | {} |",
            ratio_text(results.ratio("ours", "rmcp", "build", metric)),
            ratio_text(results.ratio("ours50", "rmcp50", "build", metric)),
        ));
        println!("{row}");
    }
    println!();
}

/// The median time of every criterion benchmark under `dir` (`group/name/new/estimates.json`).
pub fn criterion(dir: &str) -> Result<(), String> {
    let mut rows = Vec::new();
    let groups = std::fs::read_dir(dir).map_err(|e| format!("{dir}: {e}"))?;
    for group in groups.flatten().filter(|g| g.path().is_dir()) {
        for bench in std::fs::read_dir(group.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let estimates = bench.path().join("new/estimates.json");
            let Ok(text) = std::fs::read_to_string(&estimates) else {
                continue;
            };
            let value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", estimates.display()))?;
            let median_ns = value["median"]["point_estimate"]
                .as_f64()
                .unwrap_or(f64::NAN);
            let low = value["median"]["confidence_interval"]["lower_bound"]
                .as_f64()
                .unwrap_or(f64::NAN);
            let high = value["median"]["confidence_interval"]["upper_bound"]
                .as_f64()
                .unwrap_or(f64::NAN);
            rows.push((
                format!(
                    "{}/{}",
                    group.file_name().to_string_lossy(),
                    bench.file_name().to_string_lossy()
                ),
                median_ns,
                low,
                high,
            ));
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    println!("| benchmark | median (ns) | 95% interval (ns) |");
    println!("| --- | --- | --- |");
    for (name, median, low, high) in rows {
        println!(
            "| {name} | {} | {}–{} |",
            number(median),
            number(low),
            number(high)
        );
    }
    Ok(())
}
