-- wrk script for bench/run-http --stateless, column ours-same-bytes: the control for the era's
-- own cost. A session-based stateless tools/call of `add` (2 + 3) that carries the bytes of
-- http-call-stateless.lua's request: the same headers (with `MCP-Protocol-Version: 2025-11-25`,
-- so no revision 2026-07-28 is claimed) and a body of the same length whose `_meta` holds the
-- same members under other names (`example.com/same-bytes/x...` for
-- `io.modelcontextprotocol/...`), which a server of the session-based era scans and ignores.
-- POSTed to the Streamable HTTP endpoint given on the command line; counts what comes back
-- (http-count.lua).
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["accept"] = "application/json, text/event-stream"
wrk.headers["mcp-protocol-version"] = "2025-11-25"
wrk.headers["mcp-method"] = "tools/call"
wrk.headers["mcp-name"] = "add"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"example.com/same-bytes/xprotocolVersion":"2026-07-28","example.com/same-bytes/xclientCapabilities":{},"example.com/same-bytes/xclientInfo":{"name":"wrk","version":"0"}}}}'

dofile("http-count.lua")
