-- The counting half of bench/run-http's wrk scripts (loaded by each with dofile, from bench/,
-- where run-http runs): counts responses that are not 200 or whose body lacks the text the
-- script expects (`expected`, set before dofile; by default the sum of add(2, 3)), so errors
-- show; done() prints one line:
-- "RESULT requests=N rps=R p50_us=X p99_us=Y non200=N badbody=N errors=N".

local threads = {}
local expected_text = expected or '"text":"5"'

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    non200 = 0
    badbody = 0
end

function response(status, headers, body)
    if status ~= 200 then
        non200 = non200 + 1
    elseif not string.find(body, expected_text, 1, true) then
        badbody = badbody + 1
    end
end

function done(summary, latency, requests)
    local non200, badbody = 0, 0
    for _, thread in ipairs(threads) do
        non200 = non200 + thread:get("non200")
        badbody = badbody + thread:get("badbody")
    end
    local e = summary.errors
    local errors = e.connect + e.read + e.write + e.status + e.timeout
    io.write(string.format(
        "RESULT requests=%d rps=%.1f p50_us=%d p99_us=%d non200=%d badbody=%d errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6),
        latency:percentile(50), latency:percentile(99), non200, badbody, errors))
end
