-- wrk script for bench/run-http --protected: POSTs one tools/call of `add` (2 + 3) with the
-- access token in BENCH_TOKEN as `Authorization: Bearer` to the Streamable HTTP endpoint given on
-- the command line (http://127.0.0.1:PORT/mcp) and counts what comes back
-- (http-count.lua).
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["accept"] = "application/json, text/event-stream"
wrk.headers["authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'

dofile("http-count.lua")
