-- wrk script for bench/run-http --stateless, column ours-2025-11-25: the session-based stateless
-- tools/call of `add` (2 + 3) of http-call.lua with the `MCP-Protocol-Version: 2025-11-25` header
-- a 2025-06-18 or 2025-11-25 client sends on every request after `initialize`, POSTed to
-- the Streamable HTTP endpoint given on the command line; counts what comes back (http-count.lua).
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["accept"] = "application/json, text/event-stream"
wrk.headers["mcp-protocol-version"] = "2025-11-25"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'

dofile("http-count.lua")
