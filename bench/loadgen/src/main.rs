//! A load generator for stdio MCP servers.
//!
//! ```text
//! loadgen run     --label L --mode M --rep R [--scenarios add:1:20000,...] [--warmup N] [--stateless] -- SERVER ARGS...
//! loadgen startup --label L --mode M --rep R [--n 20] -- SERVER ARGS...
//! loadgen report  RESULTS.tsv...
//! loadgen criterion TARGET/criterion
//! ```
//!
//! `run` starts the server, does the handshake (none with `--stateless`: every request of
//! revision 2026-07-28 carries its own `_meta` instead), warms up, then runs each scenario
//! (`TOOL:IN_FLIGHT:REQUESTS`, TOOL one of add, echo, summarize, list) and prints one line per
//! figure: `label mode rep metric value`, tab-separated. Metrics: `SCENARIO.rps` (requests per
//! second), `SCENARIO.p50_us` and `.p99_us` (latency), `SCENARIO.cpu_us` (server CPU time per
//! request, from the server process's CPU-time clock), `SCENARIO.rss_now_kib` (the server's
//! RSS after the scenario, VmRSS), and `rss_kib` (the server's peak RSS, VmHWM, at the end).
//! `startup` times spawn to `initialize` reply `--n` times and prints the median as
//! `startup_us`. `report` turns such lines (plus the build figures of bench/run) into the
//! tables of BENCHMARKS.md; `criterion` tabulates the medians of a `cargo bench -p micro` run.

mod client;
mod procfs;
mod report;
mod workload;

use std::process::ExitCode;

const DEFAULT_SCENARIOS: &str =
    "add:1:20000,echo:1:20000,summarize:1:20000,list:1:5000,add:64:50000,summarize:64:50000";

struct Options {
    label: String,
    mode: String,
    rep: String,
    scenarios: String,
    warmup: usize,
    n: usize,
    /// Revision 2026-07-28: no `initialize`, `_meta` on every request.
    stateless: bool,
    command: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        label: "server".to_owned(),
        mode: "-".to_owned(),
        rep: "1".to_owned(),
        scenarios: DEFAULT_SCENARIOS.to_owned(),
        warmup: 2000,
        n: 20,
        stateless: false,
        command: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--label" => options.label = value()?,
            "--mode" => options.mode = value()?,
            "--rep" => options.rep = value()?,
            "--scenarios" => options.scenarios = value()?,
            "--warmup" => {
                options.warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?
            }
            "--n" => options.n = value()?.parse().map_err(|e| format!("--n: {e}"))?,
            "--stateless" => options.stateless = true,
            "--" => {
                options.command = args.cloned().collect();
                break;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.command.is_empty() {
        return Err("no server command (after --)".to_owned());
    }
    Ok(options)
}

fn emit(options: &Options, metric: &str, value: f64) {
    println!(
        "{}\t{}\t{}\t{metric}\t{value:.3}",
        options.label, options.mode, options.rep
    );
}

fn run(options: &Options) -> Result<(), String> {
    let mut scenarios = Vec::new();
    for spec in options.scenarios.split(',').filter(|s| !s.is_empty()) {
        let parts: Vec<&str> = spec.split(':').collect();
        let [tool, inflight, count] = parts[..] else {
            return Err(format!("scenario {spec}: expected TOOL:IN_FLIGHT:REQUESTS"));
        };
        let variants = workload::variants(tool, options.stateless)
            .ok_or_else(|| format!("scenario {spec}: unknown tool {tool}"))?;
        let inflight: usize = inflight
            .parse()
            .map_err(|e| format!("scenario {spec}: {e}"))?;
        let count: usize = count.parse().map_err(|e| format!("scenario {spec}: {e}"))?;
        scenarios.push((
            format!("{tool}@{inflight}"),
            variants,
            inflight.max(1),
            count,
        ));
    }
    let mut connection = client::Connection::spawn(&options.command, true)?;
    if !options.stateless {
        connection.handshake()?;
    }
    if options.warmup > 0 {
        for tool in ["add", "echo", "summarize"] {
            let variants = workload::variants(tool, options.stateless).expect("a known tool");
            connection.run(&variants, options.warmup, 16)?;
        }
    }
    for (name, variants, inflight, count) in &scenarios {
        let mut measured = connection.run(variants, *count, *inflight)?;
        emit(options, &format!("{name}.rps"), measured.per_second());
        emit(
            options,
            &format!("{name}.p50_us"),
            measured.latency_us(0.50),
        );
        emit(
            options,
            &format!("{name}.p99_us"),
            measured.latency_us(0.99),
        );
        emit(
            options,
            &format!("{name}.cpu_us"),
            measured.cpu_us_per_request(),
        );
        emit(options, &format!("{name}.rss_now_kib"), connection.rss_kib());
    }
    emit(options, "rss_kib", connection.peak_rss_kib());
    connection.close()
}

fn startup(options: &Options) -> Result<(), String> {
    // One untimed start first: the binary's pages into the page cache.
    client::startup_us(&options.command)?;
    let mut times = Vec::with_capacity(options.n);
    for _ in 0..options.n.max(1) {
        times.push(client::startup_us(&options.command)?);
    }
    times.sort_by(f64::total_cmp);
    emit(options, "startup_us", times[times.len() / 2]);
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("run") => parse(&args[1..]).and_then(|o| run(&o)),
        Some("startup") => parse(&args[1..]).and_then(|o| startup(&o)),
        Some("report") => report::print(&args[1..]),
        Some("criterion") => {
            report::criterion(args.get(1).map_or("target/criterion", String::as_str))
        }
        _ => Err(
            "usage: loadgen run|startup [options] -- SERVER ARGS... | loadgen report FILE..."
                .to_owned(),
        ),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("loadgen: {error}");
            ExitCode::FAILURE
        }
    }
}
