#!/usr/bin/env python3
"""Figures for several instances sharing Redis (BENCHMARKS.md, "Several instances"):

- notification latency: a `subscriptions/listen` stream on instance A, a tool-list change
  made on instance B (`tools/call test_trigger_tool_change`), the time from sending the call
  to B (a new connection each time) to the notification on A's stream, over N changes (p50,
  p99); the same with the change made on A itself, for the in-process path;
- memory per idle session of a 2025 revision: instance A's VmRSS before and after opening
  1000 sessions (`initialize` each), divided by 1000;
- with --throughput instead: requests/s and server CPU time (user + system, from /proc) per
  request, for one instance alone and for two behind HAProxy (deploy/haproxy.cfg as it is),
  driven by wrk (-t2 -c64, bench/http-call-everything.lua: a stateless `tools/call` of
  `test_simple_text`), the two set-ups interleaved, medians over --reps runs. The pair's CPU is
  both instances' together; HAProxy's own is given beside it. On a machine whose cores wrk,
  HAProxy and the instances share, two instances cannot do more than the cores allow: read
  requests/s with the CPU per request, which says what the balancer and the second process
  cost.

Real parts: a redis-server on a free port and two `examples/everything` release binaries
started as a deployment starts them (`--http`, `--redis`, `--state-keys`, `--allow-host`).
Needs scripts/install-test-tools (redis-server, haproxy), wrk for --throughput, and
`cargo build --release --example everything`.

Usage: bench/scale.py [--changes N]
       bench/scale.py --throughput [--duration 10s] [--reps 5]
"""

import base64, json, os, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
# SCALE_EVERYTHING: another build of it (a debug one, to try the script quickly).
EVERYTHING = os.environ.get("SCALE_EVERYTHING",
                            os.path.join(ROOT, "target", "release", "examples", "everything"))
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "scale-bench", "version": "0"}}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"bench/scale.py: nothing listens on {port}")


def post(port, body, headers, keep=False):
    """POSTs to /mcp; returns (status, response headers, socket, rest) when keep, else (status, body)."""
    sock = socket.create_connection(("127.0.0.1", port))
    payload = json.dumps(body).encode()
    head = [f"POST /mcp HTTP/1.1", f"host: 127.0.0.1:{port}", "content-type: application/json",
            "accept: application/json, text/event-stream", f"content-length: {len(payload)}"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    header, rest = data.split(b"\r\n\r\n", 1)
    lines = header.decode().split("\r\n")
    status = int(lines[0].split()[1])
    fields = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:]}
    if keep:
        return status, fields, sock, rest
    length = int(fields.get("content-length", "0"))
    while len(rest) < length:
        rest += sock.recv(65536)
    sock.close()
    return status, rest


def stateless(method, params, name=None):
    params = dict(params, _meta=META)
    headers = {"mcp-protocol-version": "2026-07-28", "mcp-method": method}
    if name:
        headers["mcp-name"] = name
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, headers


class Stream:
    """An SSE stream read event by event (chunked transfer decoded)."""

    def __init__(self, sock, rest):
        self.sock, self.buffer, self.text = sock, rest, b""

    def _fill(self):
        while True:
            if b"\r\n" in self.buffer:
                size_line, after = self.buffer.split(b"\r\n", 1)
                size = int(size_line, 16)
                if len(after) >= size + 2:
                    self.text += after[:size]
                    self.buffer = after[size + 2:]
                    return
            chunk = self.sock.recv(65536)
            if not chunk:
                sys.exit("bench/scale.py: the listen stream ended")
            self.buffer += chunk

    def next_event(self):
        while b"\n\n" not in self.text:
            self._fill()
        event, self.text = self.text.split(b"\n\n", 1)
        data = [l[5:].strip() for l in event.decode().split("\n") if l.startswith("data:")]
        return json.loads("".join(data)) if data and "".join(data) else None


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])


def cpu_ticks(pid):
    """User + system CPU time of `pid` so far, in clock ticks."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def start_instances(processes, files, public_port):
    """A redis-server and two instances sharing it and a key file (its path added to `files`);
    their ports."""
    redis_port = free_port()
    processes.append(subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    wait_port(redis_port)
    keys = tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False)
    keys.write(base64.b64encode(os.urandom(32)).decode() + "\n")
    keys.close()
    files.append(keys.name)
    ports = []
    for _ in range(2):
        port = free_port()
        processes.append(subprocess.Popen(
            [EVERYTHING, "--http", f"127.0.0.1:{port}", "--redis", f"redis://127.0.0.1:{redis_port}",
             "--state-keys", keys.name, "--allow-host", f"127.0.0.1:{public_port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_port(port)
        ports.append(port)
    return ports


def wrk(port, duration):
    """One wrk run against `port`: its RESULT fields (http-count.lua)."""
    out = subprocess.run(
        ["wrk", "-t2", "-c64", f"-d{duration}", "--timeout", "5s", "-s", "http-call-everything.lua",
         f"http://127.0.0.1:{port}/mcp"], cwd=BENCH, capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    fields = dict(f.split("=") for f in line.split()[1:])
    if fields["non200"] != "0" or fields["badbody"] != "0" or fields["errors"] != "0":
        sys.exit(f"bench/scale.py: wrk saw failures against {port}: {line}")
    return {k: float(v) for k, v in fields.items()}


def throughput(processes, a, b, public_port):
    duration, reps = arg("--duration", "10s"), int(arg("--reps", "5"))
    processes.append(subprocess.Popen(
        ["haproxy", "-db", "-f", os.path.join(ROOT, "deploy", "haproxy.cfg")],
        env=dict(os.environ, MCP_PUBLIC_ADDR=f"127.0.0.1:{public_port}",
                 MCP_INSTANCE_A=f"127.0.0.1:{a}", MCP_INSTANCE_B=f"127.0.0.1:{b}"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    wait_port(public_port)
    pid_a, pid_b, pid_haproxy = processes[1].pid, processes[2].pid, processes[3].pid
    tick_us = 1e6 / os.sysconf("SC_CLK_TCK")
    runs = {"one instance alone": [], "two behind HAProxy": []}
    for _ in range(reps):
        for label, port, servers in (("one instance alone", a, [pid_a]),
                                     ("two behind HAProxy", public_port, [pid_a, pid_b])):
            before = [cpu_ticks(p) for p in servers + [pid_haproxy]]
            result = wrk(port, duration)
            after = [cpu_ticks(p) for p in servers + [pid_haproxy]]
            spent = [(x - y) * tick_us for x, y in zip(after, before)]
            requests = max(result["requests"], 1)
            runs[label].append((result["rps"], result["p99_us"], sum(spent[:-1]) / requests,
                                spent[-1] / requests))
    print(f"wrk -t2 -c64 -d{duration}, {reps} runs each, interleaved; medians "
          f"({os.cpu_count()} cpus, load average {open('/proc/loadavg').read().split()[0]} at the end)\n")
    print("| set-up | requests/s | p99 | server CPU per request | HAProxy CPU per request |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, values in runs.items():
        rps, p99, cpu, proxy = (statistics.median(v[i] for v in values) for i in range(4))
        proxy_text = f"{proxy:.1f} us" if label != "one instance alone" else "—"
        print(f"| {label} | {rps:.0f} | {p99 / 1000:.2f} ms | {cpu:.1f} us | {proxy_text} |")


def main():
    changes = int(arg("--changes", "200"))
    if not os.path.exists(EVERYTHING):
        sys.exit("bench/scale.py: build it first: cargo build --release --example everything")
    processes, files = [], []
    try:
        public_port = free_port()
        a, b = start_instances(processes, files, public_port)
        if "--throughput" in sys.argv:
            throughput(processes, a, b, public_port)
            return
        results = {}
        for label, trigger in (("across instances (change on B, listener on A)", b),
                               ("same instance (change and listener on A)", a)):
            body, headers = stateless("subscriptions/listen", {"notifications": {"toolsListChanged": True}})
            status, _, sock, rest = post(a, body, headers, keep=True)
            stream = Stream(sock, rest)
            ack = stream.next_event()
            assert ack["method"] == "notifications/subscriptions/acknowledged", ack
            latencies = []
            for _ in range(changes):
                body, headers = stateless("tools/call", {"name": "test_trigger_tool_change", "arguments": {}},
                                          name="test_trigger_tool_change")
                sent = time.perf_counter()
                status, answer = post(trigger, body, headers)
                assert status == 200, answer
                while True:
                    event = stream.next_event()
                    if event and event.get("method") == "notifications/tools/list_changed":
                        break
                latencies.append((time.perf_counter() - sent) * 1e6)
                time.sleep(0.005)
            sock.close()
            latencies.sort()
            results[label] = (statistics.median(latencies), latencies[int(len(latencies) * 0.99) - 1])
        print(f"notification latency, {changes} changes each, from sending the trigger (us):")
        for label, (p50, p99) in results.items():
            print(f"  {label}: p50 {p50:.0f}, p99 {p99:.0f}")
        pid_a = processes[1].pid
        before = rss_kib(pid_a)
        for i in range(1000):
            body = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "scale-bench", "version": "0"}}}
            status, answer = post(a, body, {})
            assert status == 200, answer
        time.sleep(0.5)
        after = rss_kib(pid_a)
        print(f"idle 2025-11-25 sessions on one instance: VmRSS {before} KiB before, {after} KiB after 1000 "
              f"sessions: {(after - before) * 1024 / 1000:.0f} bytes per session")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait()
        for path in files:
            os.unlink(path)


if __name__ == "__main__":
    main()
