#!/usr/bin/env python3
"""Sends N `tools/call` requests of `add` (2 + 3) one after the other on one keep-alive
connection to a Streamable HTTP server on 127.0.0.1:PORT, and checks each answer: for counting
a server's instructions and allocations per request under valgrind (the difference of two runs
with different N), which wrk's fixed duration cannot give. See BENCHMARKS.md.

Usage: bench/http-calls.py PORT N legacy|legacy-2025-11-25|2026|same-bytes
  legacy: the session-based stateless request without an MCP-Protocol-Version header (what a
  2025-03-26 client sends); legacy-2025-11-25: the same with `MCP-Protocol-Version: 2025-11-25`
  (what a 2025-06-18 or 2025-11-25 client sends after `initialize`); 2026: revision 2026-07-28's
  request, with its `_meta` and its MCP-Protocol-Version, Mcp-Method and Mcp-Name headers;
  same-bytes: a 2025-11-25 request with the bytes of the 2026 one (its headers, with
  `MCP-Protocol-Version: 2025-11-25`, and its `_meta` under other names of the same length),
  the control that tells the era's own cost from the cost of the longer message (bench/run-http
  --stateless, column ours-same-bytes).
"""
import http.client
import sys

LEGACY = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'
MODERN = ('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},'
          '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
          '"io.modelcontextprotocol/clientCapabilities":{},'
          '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"0"}}}}')
# The same length: the names keep their length, and no longer claim a revision.
SAME_BYTES = MODERN.replace("io.modelcontextprotocol/", "example.com/same-bytes/x")


def main() -> None:
    port, count, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    body = LEGACY
    if mode == "legacy-2025-11-25":
        headers["mcp-protocol-version"] = "2025-11-25"
    elif mode == "2026":
        headers.update({"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add"})
        body = MODERN
    elif mode == "same-bytes":
        headers.update({"mcp-protocol-version": "2025-11-25", "mcp-method": "tools/call", "mcp-name": "add"})
        body = SAME_BYTES
    elif mode != "legacy":
        sys.exit(f"unknown mode {mode!r}: legacy, legacy-2025-11-25, 2026 or same-bytes")
    connection = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(count):
        connection.request("POST", "/mcp", body, headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200 or b'"text":"5"' not in data:
            sys.exit(f"unexpected answer {response.status}: {data!r}")


if __name__ == "__main__":
    main()
