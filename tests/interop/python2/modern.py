"""Interoperability test: the official Python MCP client 2.x (PyPI `mcp`), in its default mode,
against the gift and companion servers, revision 2026-07-28.

Usage: modern.py [--legacy] gifts|companion (URL | SERVER_COMMAND [ARG...])

Connects with `mcp.Client` over Streamable HTTP (a URL) or over stdio (the server command,
spawned by the client). By default the client runs in its default mode, "auto": it probes
`server/discover` and speaks 2026-07-28 when the server answers it, with no `initialize` and
no session. `--legacy` passes `mode="legacy"` (the 2025 `initialize` handshake and a session)
instead, to show the same server still serves the session-based era to this client.

Against `gifts`: the negotiated revision and the discover result, the tool (a call and a
business error), the catalog resource and its category template (read, and an unknown
category), the congratulation prompt, and completion of the prompt's argument. Against
`companion`: its tools, `confirm_action` answered through the client's `elicitation_callback`
and `ask_model` through its `sampling_callback`; in the 2026-07-28 era the first round is
also taken by hand to see the input-required result the SDK then resolves by itself, and
progress, log messages at the `logLevel` a request names, and a tool added while the client
listens (`Client.listen`, `subscriptions/listen`) are checked too. Every
result is parsed into the SDK's own pydantic types; any warning or error the client logs fails
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
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ToolsListChanged

OVERALL_TIMEOUT_S = 30
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
TOOL = "suggest_gifts"
CATALOG_URI = "mcp://gift-server/resources/gift_catalog"
CATEGORY_TEMPLATE = "mcp://gift-server/resources/gift_catalog/{category}"
PROMPT = "gift_congrats_style"
COMPANION_TOOLS = {"slow_count", "confirm_action", "ask_model", "log_levels", "add_greeter"}
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
# How long a notification the server owes may take to show up, and how long to wait before
# concluding that one it must not send did not come.
ARRIVAL_TIMEOUT_S = 5
SETTLE_S = 0.3


class CheckFailed(Exception):
    pass


# What the client is doing, for the message when it fails with an exception of its own.
current_step = "connecting"


def step(what):
    global current_step
    current_step = what


def check(condition, what, detail=""):
    if not condition:
        raise CheckFailed(f"{what}" + (f": {detail}" if detail else ""))
    print(f"ok - {what}", flush=True)


def texts(result):
    return [block.text for block in result.content if getattr(block, "type", None) == "text"]


def text_of(result):
    return "".join(texts(result))


def show(model):
    return model.model_dump_json(exclude_none=True, by_alias=True)


def show_all(models):
    return "[" + ", ".join(map(show, models)) + "]"


# What the client complained about by itself: logged warnings and errors (the SDK logs, for
# instance, a message it fails to validate), Python warnings (deprecations among them), and
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


async def expect_error(code, what, request):
    """Checks that awaiting `request` raises an MCP error with `code`."""
    try:
        result = await request
    except MCPError as error:
        check(error.code == code, what, f"got code {error.code}: {error.message}")
    else:
        raise CheckFailed(f"{what}, got a result: {show(result)}")


class Answers:
    """What the client's callbacks were asked, and the answers they give, in order."""

    def __init__(self):
        self.elicitations = []  # ElicitRequestParams
        self.elicitation_answers = []  # ElicitResult
        self.samplings = []  # CreateMessageRequestParams
        self.sampling_answers = []  # CreateMessageResult
        self.logs = []  # LoggingMessageNotificationParams

    async def elicit(self, context, params):
        self.elicitations.append(params)
        if not self.elicitation_answers:
            return types.ErrorData(code=types.INVALID_REQUEST, message="this test expected no elicitation now")
        return self.elicitation_answers.pop(0)

    async def log(self, params):
        self.logs.append(params)

    async def sample(self, context, params):
        self.samplings.append(params)
        if not self.sampling_answers:
            return types.ErrorData(code=types.INVALID_REQUEST, message="this test expected no sampling now")
        return self.sampling_answers.pop(0)


def check_era(client, mode, name):
    """The revision the client negotiated, and how."""
    session = client.session
    if mode == "legacy":
        check(client.protocol_version == LEGACY, f"legacy mode: negotiated {LEGACY}", f"got {client.protocol_version}")
        check(
            session.initialize_result is not None and session.discover_result is None,
            "legacy mode: through initialize, without server/discover",
        )
    else:
        check(client.protocol_version == MODERN, f"default mode: negotiated {MODERN}", f"got {client.protocol_version}")
        discover = session.discover_result
        check(
            discover is not None and session.initialize_result is None,
            "default mode: through server/discover, without initialize",
        )
        check(
            MODERN in discover.supported_versions and LEGACY in discover.supported_versions,
            f"server/discover: supportedVersions has {MODERN} and {LEGACY}",
            json.dumps(discover.supported_versions),
        )
    info = client.server_info
    check(info is not None and info.name == name, f"serverInfo.name is {name}", f"got {info!r}")


async def check_gifts(client, mode):
    check_era(client, mode, "gift-server")
    capabilities = client.server_capabilities
    check(
        capabilities.tools is not None and capabilities.resources is not None and capabilities.prompts is not None,
        "capabilities: tools, resources and prompts",
        show(capabilities),
    )
    check(
        (client.instructions or "").startswith("Call suggest_gifts"),
        "the instructions are the gift server's",
        repr(client.instructions),
    )

    step("tools/list")
    listed = await client.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    check(TOOL in tools, f"tools/list: {TOOL} is listed", f"got {sorted(tools)}")
    schema = tools[TOOL].input_schema
    check(
        set(schema.get("required", [])) == {"occasion", "budget"},
        f"tools/list: {TOOL} requires occasion and budget",
        json.dumps(schema),
    )

    step(f"tools/call {TOOL}")
    result = await client.call_tool(TOOL, {"occasion": "birthday", "budget": 30})
    check(not result.is_error, f"tools/call: {TOOL} succeeds", show(result))
    check(result.result_type == "complete", 'tools/call: resultType is "complete"', show(result))
    gifts = (result.structured_content or {}).get("gifts", [])
    check(
        gifts and all(gift["price"] <= 30 for gift in gifts),
        "tools/call: structuredContent has gifts within the budget",
        show(result),
    )
    check(json.loads(text_of(result)) == result.structured_content, "tools/call: the text is the structured content")

    step(f"tools/call {TOOL} beyond the catalog")
    failed = await client.call_tool(TOOL, {"occasion": "wedding", "budget": 1})
    check(
        failed.is_error and "cheapest" in text_of(failed),
        "tools/call: a budget nothing fits is a tool error naming the cheapest gift",
        show(failed),
    )

    step("resources/list")
    resources = await client.list_resources()
    check(
        CATALOG_URI in {str(r.uri) for r in resources.resources},
        "resources/list: the catalog is listed",
        show(resources),
    )
    templates = await client.list_resource_templates()
    check(
        CATEGORY_TEMPLATE in {t.uri_template for t in templates.resource_templates},
        "resources/templates/list: the category template is listed",
        show(templates),
    )

    step("resources/read of the catalog")
    read = await client.read_resource(CATALOG_URI)
    check(len(read.contents) == 1, "resources/read: one content", show(read))
    contents = read.contents[0]
    check(contents.mime_type == "application/json", "resources/read: mimeType is application/json", show(read))
    catalog = json.loads(contents.text)
    check(
        "books" in {category["name"] for category in catalog.get("categories", [])},
        "resources/read: the catalog lists its categories",
        contents.text,
    )

    step("resources/read through the template")
    books = await client.read_resource(CATEGORY_TEMPLATE.replace("{category}", "books"))
    check(
        json.loads(books.contents[0].text).get("name") == "books",
        "resources/read: the template reads the books category",
        show(books),
    )
    step("resources/read of an unknown category")
    unknown = CATEGORY_TEMPLATE.replace("{category}", "socks")
    if mode == "legacy":
        await expect_error(RESOURCE_NOT_FOUND, "resources/read: an unknown category is -32002", client.read_resource(unknown))
    else:
        await expect_error(INVALID_PARAMS, "resources/read: an unknown category is -32602", client.read_resource(unknown))

    step("prompts/list")
    prompts = await client.list_prompts()
    check(PROMPT in {p.name for p in prompts.prompts}, f"prompts/list: {PROMPT} is listed", show(prompts))

    step(f"prompts/get {PROMPT}")
    prompt = await client.get_prompt(PROMPT, {"tone": "formal"})
    first = prompt.messages[0] if prompt.messages else None
    check(
        first is not None and first.role == "user" and "formal" in first.content.text,
        "prompts/get: the first message is the user's, in the formal tone",
        show(prompt),
    )

    step("completion/complete of the prompt's tone")
    tone = await client.complete(types.PromptReference(type="ref/prompt", name=PROMPT), {"name": "tone", "value": "w"})
    check(tone.completion.values == ["warm"], 'completion: the tone "w" completes to ["warm"]', show(tone))


async def check_companion(client, mode, answers):
    check_era(client, mode, "companion")

    step("tools/list")
    listed = await client.list_tools()
    names = {tool.name for tool in listed.tools}
    check(COMPANION_TOOLS <= names, "tools/list: the five companion tools are listed", f"got {sorted(names)}")

    if mode != "legacy":
        # The first round by hand: what the server answers a call whose handler asks a question.
        step("confirm_action, first round only")
        first = await client.session.call_tool("confirm_action", {"action": "deploy"}, allow_input_required=True)
        check(isinstance(first, types.InputRequiredResult), "input required: the first round asks for input", show(first))
        requests = first.input_requests or {}
        check(len(requests) == 1, "input required: one input request", show(first))
        (request,) = requests.values()
        check(
            isinstance(request, types.ElicitRequest) and "deploy" in request.params.message,
            "input required: an elicitation whose message names the action",
            show(first),
        )
        check(bool(first.request_state), "input required: a requestState to echo", show(first))
        check(not answers.elicitations, "input required: nothing reached the elicitation callback yet")

    step("confirm_action answered accept")
    answers.elicitation_answers.append(types.ElicitResult(action="accept", content={"confirmed": True, "note": "ok"}))
    accepted = await client.call_tool("confirm_action", {"action": "deploy"})
    check(len(answers.elicitations) == 1, "elicitation: the callback was called once", f"{len(answers.elicitations)} calls")
    question = answers.elicitations[0]
    schema = question.requested_schema
    check(
        "deploy" in question.message
        and schema.get("properties", {}).get("confirmed", {}).get("type") == "boolean"
        and schema.get("required") == ["confirmed"],
        "elicitation: the question names the action and requires confirmed (boolean)",
        show(question),
    )
    check(not accepted.is_error, "elicitation: accept succeeds", show(accepted))
    check(
        text_of(accepted) == "confirmed: deploy (note: ok)",
        'elicitation: accept gives "confirmed: deploy (note: ok)"',
        json.dumps(texts(accepted)),
    )

    step("confirm_action answered decline")
    answers.elicitation_answers.append(types.ElicitResult(action="decline"))
    declined = await client.call_tool("confirm_action", {"action": "deploy"})
    check(len(answers.elicitations) == 2, "elicitation: the callback was called again", f"{len(answers.elicitations)} calls")
    check(text_of(declined).startswith("declined"), 'elicitation: decline gives "declined"', json.dumps(texts(declined)))

    step("ask_model")
    answers.sampling_answers.append(
        types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="42"),
            model="interop-model",
            stop_reason="endTurn",
        )
    )
    asked = await client.call_tool("ask_model", {"question": "What is six times seven?"})
    check(len(answers.samplings) == 1, "sampling: the callback was called once", f"{len(answers.samplings)} calls")
    check(not asked.is_error and text_of(asked) == "42", 'sampling: the result is the model\'s "42"', show(asked))

    if mode != "legacy":
        await check_progress(client)
        await check_log_level(client, answers)
        await check_listen(client)


async def check_progress(client):
    step("slow_count with progress")
    progress = []

    async def on_progress(value, total, message):
        progress.append((value, total, message))

    result = await client.call_tool("slow_count", {"steps": 3, "delay_ms": 20}, progress_callback=on_progress)
    check(text_of(result) == "counted to 3", 'progress: slow_count gives "counted to 3"', show(result))
    values = [value for value, _, _ in progress]
    check(
        values == [1, 2, 3] and all(total == 3 for _, total, _ in progress),
        "progress: three notifications, 1 to 3 of 3, by the time the result arrives",
        json.dumps(progress),
    )


async def check_log_level(client, answers):
    step("log_levels without a logLevel")
    answers.logs.clear()
    await client.call_tool("log_levels", {})
    await anyio.sleep(SETTLE_S)
    check(not answers.logs, "logging: a request without a logLevel gets no log message", show_all(answers.logs))

    step("log_levels at logLevel warning")
    await client.call_tool("log_levels", {}, meta={LOG_LEVEL_KEY: "warning"})
    await anyio.sleep(SETTLE_S)
    levels = [log.level for log in answers.logs]
    check(levels == ["warning", "error"], "logging: at logLevel warning, warning and error arrive", json.dumps(levels))


async def check_listen(client):
    step("subscriptions/listen for tool list changes")
    async with client.listen(tools_list_changed=True) as subscription:
        check(
            subscription.honored.tools_list_changed is True,
            "listen: the server honours tools_list_changed",
            show(subscription.honored),
        )
        step("add_greeter while listening")
        added = await client.call_tool("add_greeter", {"name": "ana"})
        check(not added.is_error, "listen: add_greeter succeeds", show(added))
        try:
            with anyio.fail_after(ARRIVAL_TIMEOUT_S):
                event = await subscription.__anext__()
        except TimeoutError:
            raise CheckFailed(f"listen: no event within {ARRIVAL_TIMEOUT_S} s of add_greeter") from None
        check(isinstance(event, ToolsListChanged), "listen: the tool list change arrives", repr(event))
    step("tools/list after add_greeter")
    listed = await client.list_tools()
    check("greet_ana" in {t.name for t in listed.tools}, "listen: tools/list then has greet_ana", show(listed))
    greeted = await client.call_tool("greet_ana", {})
    check(text_of(greeted) == "Hello, ana!", 'listen: greet_ana says "Hello, ana!"', show(greeted))


async def run(mode, server, target):
    if target[0].startswith(("http://", "https://")):
        connect_to = target[0]
    else:
        # The server's stderr goes to ours, so a failing run shows the server's complaints too.
        connect_to = StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ))
    answers = Answers()
    step(f"connecting in {mode} mode")
    async with Client(
        connect_to,
        mode=mode,
        elicitation_callback=answers.elicit,
        sampling_callback=answers.sample,
        logging_callback=answers.log,
        message_handler=message_handler,
    ) as client:
        if server == "gifts":
            await check_gifts(client, mode)
        else:
            await check_companion(client, mode, answers)
        # Checked before closing, as the closing of the client's own streams is no fault.
        check(not complaints, "the client complained about nothing", "; ".join(complaints))


async def main(argv):
    args = argv[1:]
    mode = "auto"
    if args[:1] == ["--legacy"]:
        mode = "legacy"
        args = args[1:]
    if len(args) < 2 or args[0] not in ("gifts", "companion"):
        print(f"usage: {argv[0]} [--legacy] gifts|companion (URL | SERVER_COMMAND [ARG...])", file=sys.stderr)
        return 2
    logging.getLogger().addHandler(RecordComplaints())
    warnings.showwarning = record_warning
    try:
        await asyncio.wait_for(run(mode, args[0], args[1:]), OVERALL_TIMEOUT_S)
    except CheckFailed as failure:
        print(f"FAILED - {failure}", flush=True)
        return 1
    except asyncio.TimeoutError:
        print(f"FAILED - the client did not finish within {OVERALL_TIMEOUT_S} s (stuck at: {current_step})", flush=True)
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
