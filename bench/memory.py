#!/usr/bin/env python3
"""Memory per idle legacy session and per open GET stream of a Streamable HTTP server.

Starts SERVER --http 127.0.0.1:PORT, reads its VmRSS, opens SESSIONS sessions (initialize +
notifications/initialized, then nothing), reads VmRSS again, opens one GET stream on each of
STREAMS of them and holds the connections open, reads VmRSS a third time. Prints the
differences per session and per stream. Figures, not a test; RELIABILITY.md records them.

Usage: bench/memory.py SERVER [SESSIONS] [STREAMS]   (defaults 2000, 500)
"""
import http.client
import json
import socket
import subprocess
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    server = sys.argv[1]
    sessions = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    streams = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    process = subprocess.Popen([server, "--http", f"127.0.0.1:{port}"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
                   "host": f"127.0.0.1:{port}"}
        init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "memory", "version": "0"}}})
        done = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
        connection = http.client.HTTPConnection("127.0.0.1", port)
        time.sleep(0.5)
        before = rss_kib(process.pid)
        ids = []
        for _ in range(sessions):
            connection.request("POST", "/mcp", init, headers)
            response = connection.getresponse()
            response.read()
            session = response.getheader("mcp-session-id")
            ids.append(session)
            connection.request("POST", "/mcp", done, dict(headers, **{"mcp-session-id": session,
                                                                        "mcp-protocol-version": "2025-11-25"}))
            connection.getresponse().read()
        time.sleep(0.5)
        with_sessions = rss_kib(process.pid)
        held = []
        for session in ids[:streams]:
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall((f"GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: text/event-stream\r\n"
                       f"mcp-session-id: {session}\r\nmcp-protocol-version: 2025-11-25\r\n\r\n").encode())
            held.append(s)
        time.sleep(1.0)
        with_streams = rss_kib(process.pid)
        print(f"VmRSS: {before} KiB at start, {with_sessions} KiB with {sessions} idle sessions, "
              f"{with_streams} KiB with {streams} GET streams open on them")
        print(f"per idle session: {(with_sessions - before) * 1024 / sessions:.0f} bytes")
        print(f"per open GET stream: {(with_streams - with_sessions) * 1024 / streams:.0f} bytes")
        for s in held:
            s.close()
    finally:
        process.kill()


if __name__ == "__main__":
    main()
