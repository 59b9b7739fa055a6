//! The runtime's hot path, step by step and whole: decoding a request, decoding a tool's
//! arguments, encoding a reply, and dispatching a complete `tools/call` or `tools/list` from
//! bytes to reply bytes (on the calling task, with no transport).
//!
//! ```text
//! cd bench && cargo bench -p micro
//! ```

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_runtime::__internals as internals;
use mcp_runtime::{Arguments, CallToolResult};
use micro::{INITIALIZE, RECORD_ARGUMENTS, Record, call, server};
use serde_json::{Map, Value};

fn arguments(json: &str) -> Map<String, Value> {
    serde_json::from_str(json).expect("an arguments object")
}

fn decode_request(c: &mut Criterion) {
    let add = call(42, "add", r#"{"a":2,"b":3}"#);
    let summarize = call(42, "summarize", RECORD_ARGUMENTS);
    let mut group = c.benchmark_group("decode_request");
    group.bench_function("add", |b| {
        b.iter(|| internals::parse_message(black_box(&add)))
    });
    group.bench_function("summarize", |b| {
        b.iter(|| internals::parse_message(black_box(&summarize)))
    });
    group.finish();
}

fn decode_arguments(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode_arguments");
    let add = arguments(r#"{"a":2,"b":3}"#);
    group.bench_function("add", |b| {
        b.iter_batched(
            || Arguments::new(add.clone()),
            |mut args| {
                let a: i64 = args.decode("a").unwrap();
                let b: i64 = args.decode("b").unwrap();
                a + b
            },
            BatchSize::SmallInput,
        )
    });
    let summarize = arguments(RECORD_ARGUMENTS);
    group.bench_function("summarize", |b| {
        b.iter_batched(
            || Arguments::new(summarize.clone()),
            |mut args| args.decode::<Record>("record").unwrap(),
            BatchSize::SmallInput,
        )
    });
    // What `tools/call` does before the tool: the params into a map (and so the arguments).
    let params = format!(r#"{{"name":"summarize","arguments":{RECORD_ARGUMENTS}}}"#);
    group.bench_function("summarize_params_to_map", |b| {
        b.iter(|| serde_json::from_str::<Map<String, Value>>(black_box(&params)).unwrap())
    });
    // The floor's way, for comparison: the params straight into typed structs.
    #[derive(serde::Deserialize)]
    struct TypedCall<'a> {
        #[serde(borrow)]
        #[allow(dead_code)]
        name: &'a str,
        arguments: TypedArguments,
    }
    #[derive(serde::Deserialize)]
    struct TypedArguments {
        record: Record,
    }
    group.bench_function("summarize_params_typed", |b| {
        b.iter(|| {
            serde_json::from_str::<TypedCall<'_>>(black_box(&params))
                .unwrap()
                .arguments
                .record
        })
    });
    group.finish();
}

fn encode_reply(c: &mut Criterion) {
    let id = internals::request_id("42").unwrap();
    let mut group = c.benchmark_group("encode_reply");
    group.bench_function("add", |b| {
        b.iter_batched(
            || CallToolResult::text("5"),
            |result| internals::encode_result(&id, &result),
            BatchSize::SmallInput,
        )
    });
    let record: Record =
        serde_json::from_value(arguments(RECORD_ARGUMENTS).remove("record").unwrap()).unwrap();
    let text = micro::summary(&record);
    group.bench_function("summarize", |b| {
        b.iter_batched(
            || CallToolResult::text(text.clone()),
            |result| internals::encode_result(&id, &result),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn dispatch(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let server = server();
    let session = internals::direct_session(&server);
    runtime
        .block_on(session.handle(INITIALIZE))
        .expect("initialize is answered");
    let messages = [
        ("tools_call_add", call(42, "add", r#"{"a":2,"b":3}"#)),
        (
            "tools_call_echo",
            call(42, "echo", r#"{"text":"hello, world: message 7"}"#),
        ),
        (
            "tools_call_summarize",
            call(42, "summarize", RECORD_ARGUMENTS),
        ),
        (
            "tools_list",
            br#"{"jsonrpc":"2.0","id":42,"method":"tools/list"}"#.to_vec(),
        ),
        (
            "ping",
            br#"{"jsonrpc":"2.0","id":42,"method":"ping"}"#.to_vec(),
        ),
    ];
    let mut group = c.benchmark_group("dispatch");
    for (name, message) in &messages {
        let reply = runtime.block_on(session.handle(message)).expect("a reply");
        assert!(
            !String::from_utf8_lossy(&reply).contains("\"error\""),
            "{name}: {}",
            String::from_utf8_lossy(&reply)
        );
        group.bench_function(*name, |b| {
            b.iter(|| runtime.block_on(session.handle(black_box(message))))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    decode_request,
    decode_arguments,
    encode_reply,
    dispatch
);
criterion_main!(benches);
