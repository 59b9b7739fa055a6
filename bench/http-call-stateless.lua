-- wrk script for bench/run-http --stateless: POSTs one tools/call of `add` (2 + 3) of revision
-- 2026-07-28 (its `_meta` and its three standard headers) to the Streamable HTTP endpoint given
-- on the command line (http://127.0.0.1:PORT/mcp) and counts what comes
-- back (http-count.lua).
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["accept"] = "application/json, text/event-stream"
wrk.headers["mcp-protocol-version"] = "2026-07-28"
wrk.headers["mcp-method"] = "tools/call"
wrk.headers["mcp-name"] = "add"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"0"}}}}'

dofile("http-count.lua")
