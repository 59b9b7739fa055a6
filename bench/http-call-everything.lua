-- wrk script for bench/scale.py --throughput: POSTs one tools/call of `test_simple_text` of
-- revision 2026-07-28 to an `examples/everything` instance (or HAProxy in front of two) at the
-- endpoint given on the command line, and counts what comes back (http-count.lua).
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["accept"] = "application/json, text/event-stream"
wrk.headers["mcp-protocol-version"] = "2026-07-28"
wrk.headers["mcp-method"] = "tools/call"
wrk.headers["mcp-name"] = "test_simple_text"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"0"}}}}'

expected = '"text":"This is a simple text response for testing."'
dofile("http-count.lua")
