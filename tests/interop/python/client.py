"""Interoperability test: the official Python MCP client (PyPI `mcp`) against the gift server.

Usage: client.py SERVER_COMMAND [ARG...]

Spawns the server over stdio with `mcp.client.stdio.stdio_client`, drives it through
`mcp.ClientSession` and checks what a real client sees. Prints one line per check and exits
non-zero at the first failure. Run by `tests/interop.rs`; install the client with
`scripts/install-test-tools`.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client

OVERALL_TIMEOUT_S = 30
TOOL = "suggest_gifts"
OCCASIONS = ["birthday", "wedding", "anniversary", "graduation", "housewarming"]


class CheckFailed(Exception):
    pass


# What the client is doing, for the message when it fails with an exception of its own.
current_step = "starting the server"


def step(what):
    global current_step
    current_step = what


def check(condition, what, detail=""):
    if not condition:
        raise CheckFailed(f"{what}" + (f": {detail}" if detail else ""))
    print(f"ok - {what}", flush=True)


def texts(result):
    return [block.text for block in result.content if getattr(block, "type", None) == "text"]


async def run(command, args):
    # The server's stderr goes to ours, so a failing run shows the server's complaints too.
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            step("initialize")
            init = await session.initialize()
            check(
                init.serverInfo.name == "gift-server",
                "initialize: serverInfo.name is gift-server",
                f"got {init.serverInfo.name!r}",
            )
            check(
                init.capabilities.tools is not None,
                "initialize: the tools capability is present",
                f"capabilities: {init.capabilities.model_dump(exclude_none=True)}",
            )
            print(f"   (negotiated protocol version {init.protocolVersion})", flush=True)

            step("tools/list")
            listed = await session.list_tools()
            tools = {tool.name: tool for tool in listed.tools}
            check(TOOL in tools, f"tools/list: {TOOL} is listed", f"got {sorted(tools)}")
            tool = tools[TOOL]
            schema = tool.inputSchema
            properties = schema.get("properties", {})
            check(
                schema.get("type") == "object" and {"occasion", "budget", "recipient"} <= set(properties),
                "tools/list: inputSchema has properties occasion, budget, recipient",
                json.dumps(schema),
            )
            check(
                sorted(properties["occasion"].get("enum", [])) == sorted(OCCASIONS),
                "tools/list: occasion is an enum of the five occasions",
                json.dumps(properties["occasion"]),
            )
            check(
                properties["budget"].get("type") == "number",
                "tools/list: budget is a number",
                json.dumps(properties["budget"]),
            )
            check(
                sorted(schema.get("required", [])) == ["budget", "occasion"],
                'tools/list: inputSchema.required is ["occasion", "budget"]',
                json.dumps(schema.get("required")),
            )
            check(
                isinstance(tool.outputSchema, dict)
                and tool.outputSchema.get("type") == "object"
                and "gifts" in tool.outputSchema.get("properties", {}),
                "tools/list: outputSchema describes an object with gifts",
                json.dumps(tool.outputSchema),
            )

            # The session validates structuredContent against outputSchema itself and
            # raises if it does not conform.
            budget = 50
            step("tools/call with good arguments")
            good = await session.call_tool(
                TOOL, {"occasion": "birthday", "budget": budget, "recipient": "my sister, loves cooking"}
            )
            check(not good.isError, "call: good arguments succeed", f"result: {good.model_dump_json()}")
            structured = good.structuredContent
            gifts = (structured or {}).get("gifts")
            check(
                isinstance(gifts, list) and len(gifts) > 0,
                "call: structuredContent.gifts is a non-empty list",
                json.dumps(structured),
            )
            check(
                all(isinstance(g.get("name"), str) and isinstance(g.get("price"), (int, float)) for g in gifts),
                "call: every gift has a name and a numeric price",
                json.dumps(gifts),
            )
            check(
                all(g["price"] <= budget for g in gifts),
                f"call: every price is within the budget of {budget}",
                json.dumps(gifts),
            )
            blocks = texts(good)
            check(len(blocks) >= 1, "call: the result has a text block", good.model_dump_json())
            try:
                parsed = json.loads(blocks[0])
            except ValueError as error:
                raise CheckFailed(f"call: the text block is not JSON ({error}): {blocks[0]!r}")
            check(
                parsed == structured,
                "call: the text block parses to the same JSON as structuredContent",
                f"text: {blocks[0]!r}, structuredContent: {json.dumps(structured)}",
            )

            step("tools/call with a budget string")
            bad = await session.call_tool(TOOL, {"occasion": "birthday", "budget": "cem dólares"})
            check(bad.isError is True, "call: a budget string is a tool error (isError)", bad.model_dump_json())
            check(
                any("budget" in text for text in texts(bad)),
                "call: the tool error's text names budget",
                json.dumps(texts(bad)),
            )

            step("tools/call with a budget no gift fits")
            nothing = await session.call_tool(TOOL, {"occasion": "wedding", "budget": 5})
            check(
                nothing.isError is True,
                "call: a budget no gift fits is a tool error (isError)",
                nothing.model_dump_json(),
            )

            step("tools/call of an unknown tool")
            try:
                unknown = await session.call_tool("no_such_tool", {})
            except McpError as error:
                check(
                    error.error.code == -32602,
                    "call: an unknown tool is a JSON-RPC error -32602",
                    f"got code {error.error.code}: {error.error.message}",
                )
            else:
                raise CheckFailed(
                    f"call: an unknown tool should be a JSON-RPC error -32602, got a result: {unknown.model_dump_json()}"
                )


async def main(argv):
    if len(argv) < 2:
        print(f"usage: {argv[0]} SERVER_COMMAND [ARG...]", file=sys.stderr)
        return 2
    try:
        await asyncio.wait_for(run(argv[1], argv[2:]), OVERALL_TIMEOUT_S)
    except CheckFailed as failure:
        print(f"FAILED - {failure}", flush=True)
        return 1
    except asyncio.TimeoutError:
        print(f"FAILED - the session did not finish within {OVERALL_TIMEOUT_S} s (stuck at: {current_step})", flush=True)
        return 1
    except BaseException as error:  # noqa: BLE001 - anything else is a failure to report
        # anyio wraps errors from the transport tasks in exception groups: show the leaves.
        leaves = []

        def collect(e):
            if isinstance(e, BaseExceptionGroup):
                for inner in e.exceptions:
                    collect(inner)
            else:
                leaves.append(e)

        collect(error)
        for leaf in leaves:
            if isinstance(leaf, CheckFailed):
                print(f"FAILED - {leaf}", flush=True)
                return 1
        detail = "; ".join(f"{type(e).__name__}: {e}" for e in leaves)
        print(f"FAILED - {current_step}: the client raised {detail}", flush=True)
        import traceback

        traceback.print_exception(error, file=sys.stderr)
        return 1
    print("all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv)))
