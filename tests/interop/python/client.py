"""Interoperability test: the official Python MCP client (PyPI `mcp`) against the gift server.

Usage: client.py SERVER_COMMAND [ARG...]

Spawns the server over stdio with `mcp.client.stdio.stdio_client`, drives it through
`mcp.ClientSession` and checks what a real client sees: the tool, the catalog resource and
its category template (read, subscribe), the congratulation prompt, and completion of the
prompt's and the template's arguments. Every result is parsed into the SDK's own pydantic
types; a message the client cannot parse, and any warning or error the client logs, fails
the run. Prints one line per check and exits non-zero at the first failure. Run by
`tests/interop.rs`; install the client with `scripts/install-test-tools`.
"""

import asyncio
import json
import logging
import os
import sys
import warnings

import anyio
from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import PromptReference, ResourceTemplateReference
from pydantic import AnyUrl

OVERALL_TIMEOUT_S = 30
TOOL = "suggest_gifts"
OCCASIONS = ["birthday", "wedding", "anniversary", "graduation", "housewarming"]
CATALOG_URI = "mcp://gift-server/resources/gift_catalog"
CATEGORY_TEMPLATE = "mcp://gift-server/resources/gift_catalog/{category}"
PROMPT = "gift_congrats_style"
RESOURCE_NOT_FOUND = -32002
INVALID_PARAMS = -32602


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


# What the client complained about by itself: logged warnings and errors (the SDK logs, for
# instance, a message it fails to validate), Python warnings (pydantic's among them), and
# exceptions the transport hands to the message handler (a line that is not JSON-RPC).
complaints = []


class RecordComplaints(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record):
        complaints.append(f"{record.levelname} {record.name}: {record.getMessage()}")
        print(self.format(record), file=sys.stderr, flush=True)


def record_warning(message, category, filename, lineno, file=None, line=None):
    text = f"{category.__name__}: {message} ({filename}:{lineno})"
    complaints.append(text)
    print(text, file=sys.stderr, flush=True)


async def message_handler(message):
    if isinstance(message, Exception):
        complaints.append(f"the transport passed on {type(message).__name__}: {message}")
    await anyio.lowlevel.checkpoint()


def json_text(contents, what):
    """The JSON a resource's text contents hold, or a failed check saying why not."""
    try:
        return json.loads(contents.text)
    except ValueError as error:
        raise CheckFailed(f"{what}: the text is not JSON ({error}): {contents.text!r}")


async def expect_error(code, what, request):
    """Checks that awaiting `request` raises an MCP error with `code`."""
    try:
        result = await request
    except McpError as error:
        check(error.error.code == code, what, f"got code {error.error.code}: {error.error.message}")
    else:
        raise CheckFailed(f"{what}, got a result: {result.model_dump_json()}")


async def run(command, args):
    # The server's stderr goes to ours, so a failing run shows the server's complaints too.
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=message_handler) as session:
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
            capabilities = init.capabilities
            check(
                capabilities.resources is not None
                and capabilities.resources.subscribe is True
                and capabilities.resources.listChanged is True,
                "initialize: the resources capability has subscribe and listChanged",
                f"capabilities: {capabilities.model_dump(exclude_none=True)}",
            )
            check(
                capabilities.prompts is not None,
                "initialize: the prompts capability is present",
                f"capabilities: {capabilities.model_dump(exclude_none=True)}",
            )
            check(
                capabilities.completions is not None,
                "initialize: the completions capability is present",
                f"capabilities: {capabilities.model_dump(exclude_none=True)}",
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

            await check_resources(session)
            await check_prompts(session)
            await check_completion(session)

            check(not complaints, "the client logged no warning or error", json.dumps(complaints))


async def check_resources(session):
    step("resources/list")
    listed = await session.list_resources()
    check(
        [str(r.uri) for r in listed.resources] == [CATALOG_URI],
        "resources/list: exactly the catalog resource is listed",
        listed.model_dump_json(),
    )
    catalog = listed.resources[0]
    check(
        catalog.name == "gift_catalog"
        and catalog.description == "Base catalog of gifts: categories with their brands and price ranges."
        and catalog.mimeType == "application/json",
        "resources/list: the catalog has its name, description and mimeType application/json",
        catalog.model_dump_json(),
    )
    annotations = catalog.annotations
    check(
        annotations is not None and annotations.audience == ["assistant"] and annotations.priority == 0.8,
        "resources/list: the catalog is annotated for the assistant with priority 0.8",
        catalog.model_dump_json(),
    )

    step("resources/read of the catalog")
    read = await session.read_resource(AnyUrl(CATALOG_URI))
    check(
        len(read.contents) == 1 and getattr(read.contents[0], "text", None) is not None,
        "resources/read: the catalog is one text content",
        read.model_dump_json(),
    )
    contents = read.contents[0]
    check(
        str(contents.uri) == CATALOG_URI and contents.mimeType == "application/json",
        "resources/read: the content has the catalog's uri and mimeType application/json",
        contents.model_dump_json(exclude={"text"}),
    )
    summary = json_text(contents, "resources/read")
    categories = summary.get("categories") if isinstance(summary, dict) else None
    check(
        isinstance(categories, list) and len(categories) > 0,
        "resources/read: the catalog's JSON has a non-empty categories list",
        contents.text,
    )
    check(
        all(
            isinstance(c.get("name"), str)
            and isinstance(c.get("brands"), list)
            and all(isinstance(b, str) for b in c["brands"])
            and isinstance(c.get("min_price"), (int, float))
            and isinstance(c.get("max_price"), (int, float))
            and c["min_price"] <= c["max_price"]
            for c in categories
        ),
        "resources/read: every category has a name, brands and min_price <= max_price",
        json.dumps(categories),
    )

    step("resources/templates/list")
    templates = (await session.list_resource_templates()).resourceTemplates
    by_uri = {t.uriTemplate: t for t in templates}
    check(
        CATEGORY_TEMPLATE in by_uri,
        "resources/templates/list: the category template is listed",
        json.dumps([t.model_dump(exclude_none=True) for t in templates]),
    )
    template = by_uri[CATEGORY_TEMPLATE]
    check(
        template.name == "gift_category" and template.title == "Gift category",
        'resources/templates/list: the template is gift_category, titled "Gift category"',
        template.model_dump_json(exclude_none=True),
    )

    step("resources/read of the books category")
    books_uri = CATEGORY_TEMPLATE.replace("{category}", "books")
    read = await session.read_resource(AnyUrl(books_uri))
    check(
        len(read.contents) == 1
        and getattr(read.contents[0], "text", None) is not None
        and str(read.contents[0].uri) == books_uri
        and read.contents[0].mimeType == "application/json",
        "resources/read: the books category is one application/json text content",
        read.model_dump_json(),
    )
    books = json_text(read.contents[0], "resources/read of books")
    gifts = books.get("gifts") if isinstance(books, dict) else None
    check(
        isinstance(books, dict) and books.get("name") == "books" and isinstance(gifts, list) and len(gifts) > 0,
        'resources/read: the category\'s JSON is named "books" with a non-empty gifts list',
        read.contents[0].text,
    )

    step("resources/read of an unknown category")
    await expect_error(
        RESOURCE_NOT_FOUND,
        "resources/read: an unknown category (shoes) is error -32002",
        session.read_resource(AnyUrl(CATEGORY_TEMPLATE.replace("{category}", "shoes"))),
    )
    step("resources/read of an unknown uri")
    await expect_error(
        RESOURCE_NOT_FOUND,
        "resources/read: an unknown uri is error -32002",
        session.read_resource(AnyUrl("mcp://gift-server/nowhere")),
    )

    step("resources/subscribe")
    await session.subscribe_resource(AnyUrl(CATALOG_URI))
    check(True, "resources/subscribe: subscribing to the catalog succeeds")
    step("resources/unsubscribe")
    await session.unsubscribe_resource(AnyUrl(CATALOG_URI))
    check(True, "resources/unsubscribe: unsubscribing from the catalog succeeds")


async def check_prompts(session):
    step("prompts/list")
    prompts = {p.name: p for p in (await session.list_prompts()).prompts}
    check(PROMPT in prompts, f"prompts/list: {PROMPT} is listed", f"got {sorted(prompts)}")
    prompt = prompts[PROMPT]
    check(
        prompt.title == "Congratulation style" and bool(prompt.description),
        "prompts/list: the prompt has its title and a description",
        prompt.model_dump_json(exclude_none=True),
    )
    arguments = prompt.arguments or []
    check(
        [a.name for a in arguments] == ["tone"] and not arguments[0].required and bool(arguments[0].description),
        "prompts/list: the prompt has one optional, described argument, tone",
        prompt.model_dump_json(exclude_none=True),
    )

    step("prompts/get with tone playful")
    playful = await session.get_prompt(PROMPT, {"tone": "playful"})
    check(
        [m.role for m in playful.messages] == ["user", "assistant"],
        "prompts/get: the messages are from the user, then the assistant",
        playful.model_dump_json(),
    )
    check(
        all(m.content.type == "text" and "playful" in m.content.text for m in playful.messages),
        'prompts/get: every message is text mentioning "playful"',
        playful.model_dump_json(),
    )

    step("prompts/get without arguments")
    warm = await session.get_prompt(PROMPT)
    check(
        [m.role for m in warm.messages] == ["user", "assistant"]
        and all(m.content.type == "text" and "warm" in m.content.text for m in warm.messages),
        'prompts/get: without arguments the tone is "warm"',
        warm.model_dump_json(),
    )

    step("prompts/get of an unknown prompt")
    await expect_error(
        INVALID_PARAMS, "prompts/get: an unknown prompt is error -32602", session.get_prompt("no_such_prompt")
    )


async def check_completion(session):
    step("completion/complete of the prompt's tone")
    tone = await session.complete(PromptReference(type="ref/prompt", name=PROMPT), {"name": "tone", "value": "w"})
    check(
        tone.completion.values == ["warm"] and not tone.completion.hasMore,
        'completion: the prompt\'s tone "w" completes to ["warm"]',
        tone.model_dump_json(exclude_none=True),
    )

    step("completion/complete of the template's category")
    category = await session.complete(
        ResourceTemplateReference(type="ref/resource", uri=CATEGORY_TEMPLATE), {"name": "category", "value": "b"}
    )
    check(
        category.completion.values == ["boardgames", "books"] and not category.completion.hasMore,
        'completion: the template\'s category "b" completes to ["boardgames", "books"]',
        category.model_dump_json(exclude_none=True),
    )


async def main(argv):
    if len(argv) < 2:
        print(f"usage: {argv[0]} SERVER_COMMAND [ARG...]", file=sys.stderr)
        return 2
    logging.getLogger().addHandler(RecordComplaints())
    warnings.showwarning = record_warning
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
