"""Interoperability test: the official Python MCP client (PyPI `mcp`) against the companion server.

Usage: companion.py SERVER_COMMAND [ARG...]

The companion server (`examples/companion.rs`) talks back while its tools run. This script
answers it through the client's own callbacks (`sampling_callback`, `elicitation_callback`,
`logging_callback`, `message_handler`, and `call_tool(..., progress_callback=...)`) and checks
progress, cancellation, elicitation, sampling, log levels and a tool added at run time. Prints
one line per check and exits non-zero at the first failure. Run by `tests/interop.rs`; install
the client with `scripts/install-test-tools`.
"""

import asyncio
import contextlib
import json
import os
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

OVERALL_TIMEOUT_S = 30
# How long a notification the server owes may take to show up, and how long to wait before
# concluding that one it must not send did not come.
ARRIVAL_TIMEOUT_S = 5
SETTLE_S = 0.3
LEVELS = ["debug", "info", "notice", "warning", "error"]


# Every check that failed, first first: when the session is torn down after a failure, the
# transport's tasks may raise errors of their own (the server still writing to a closed
# stream) that would otherwise hide it.
failures = []


class CheckFailed(Exception):
    def __init__(self, message):
        super().__init__(message)
        failures.append(self)


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


def text_of(result):
    return "".join(texts(result))


@contextlib.contextmanager
def within(seconds, what):
    """Fails the check `what` if the block takes longer than `seconds`."""
    try:
        with anyio.fail_after(seconds):
            yield
    except TimeoutError:
        raise CheckFailed(f"{what}: still waiting after {seconds} s") from None


async def wait_until(condition, timeout=ARRIVAL_TIMEOUT_S):
    """Polls `condition` until it holds or `timeout` passes; returns whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        await anyio.sleep(0.01)
    return True


class Observed:
    """Everything the client's callbacks saw, in arrival order."""

    def __init__(self):
        self.log_messages = []  # LoggingMessageNotificationParams
        self.notifications = []  # (monotonic time, ServerNotification)
        self.errors = []  # exceptions handed to the message handler (e.g. stray responses)
        self.sampling_requests = []  # CreateMessageRequestParams
        self.elicitation_requests = []  # ElicitRequestParams
        self.elicitation_answers = []  # ElicitResult, one per expected request, in order
        self.sampling_answer = None

    def tool_list_changes(self):
        return [n for _, n in self.notifications if isinstance(n.root, types.ToolListChangedNotification)]

    def progress_for(self, token, since=0.0):
        return [
            n.root.params
            for at, n in self.notifications
            if at >= since
            and isinstance(n.root, types.ProgressNotification)
            and n.root.params.progressToken == token
        ]


async def run(command, args):
    seen = Observed()

    async def sampling_callback(context, params):
        seen.sampling_requests.append(params)
        if seen.sampling_answer is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message="this test expected no sampling request now")
        return seen.sampling_answer

    async def elicitation_callback(context, params):
        seen.elicitation_requests.append(params)
        if not seen.elicitation_answers:
            return types.ErrorData(code=types.INVALID_REQUEST, message="this test expected no elicitation request now")
        return seen.elicitation_answers.pop(0)

    async def logging_callback(params):
        seen.log_messages.append(params)

    async def message_handler(message):
        if isinstance(message, Exception):
            seen.errors.append(message)
        elif isinstance(message, types.ServerNotification):
            seen.notifications.append((time.monotonic(), message))
        await anyio.lowlevel.checkpoint()

    # The server's stderr goes to ours, so a failing run shows the server's complaints too.
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=sampling_callback,
            elicitation_callback=elicitation_callback,
            logging_callback=logging_callback,
            message_handler=message_handler,
        ) as session:
            step("initialize")
            init = await session.initialize()
            check(
                init.serverInfo.name == "companion",
                "initialize: serverInfo.name is companion",
                f"got {init.serverInfo.name!r}",
            )
            capabilities = init.capabilities
            check(
                capabilities.tools is not None and capabilities.tools.listChanged is True,
                "initialize: the tools capability has listChanged",
                json.dumps(capabilities.model_dump(exclude_none=True)),
            )
            check(
                capabilities.logging is not None,
                "initialize: the logging capability is present",
                json.dumps(capabilities.model_dump(exclude_none=True)),
            )
            print(f"   (negotiated protocol version {init.protocolVersion})", flush=True)

            step("tools/list")
            listed = await session.list_tools()
            names = {tool.name for tool in listed.tools}
            expected = {"slow_count", "confirm_action", "ask_model", "log_levels", "add_greeter"}
            check(expected <= names, "tools/list: the five companion tools are listed", f"got {sorted(names)}")

            await check_progress(session)
            await check_cancellation(session, seen)
            await check_elicitation(session, seen)
            await check_sampling(session, seen)
            await check_logging(session, seen)
            await check_list_changed(session, seen)

            check(not seen.errors, "no stray messages reached the client", "; ".join(map(str, seen.errors)))


async def check_progress(session):
    step("slow_count with progress")
    progress = []  # (progress, total, message, whether the result had arrived yet)
    answered = False

    async def on_progress(value, total, message):
        progress.append((value, total, message, answered))

    result = await session.call_tool("slow_count", {"steps": 3, "delay_ms": 20}, progress_callback=on_progress)
    answered = True
    shown = json.dumps([p[:3] for p in progress])
    check(not result.isError, "progress: slow_count succeeds", result.model_dump_json())
    check(len(progress) == 3, "progress: three progress notifications", shown)
    values = [p[0] for p in progress]
    check(all(a < b for a, b in zip(values, values[1:])), "progress: the progress values increase", shown)
    check(all(p[1] == 3 for p in progress), "progress: every notification has total 3", shown)
    check(not any(p[3] for p in progress), "progress: all arrived before the result", shown)
    check(text_of(result) == "counted to 3", 'progress: the result is "counted to 3"', json.dumps(texts(result)))


async def check_cancellation(session, seen):
    step("slow_count cancelled by the client")
    started = anyio.Event()
    outcome = []

    def progress_tokens():
        return [n.root.params.progressToken for _, n in seen.notifications if isinstance(n.root, types.ProgressNotification)]

    earlier_tokens = set(progress_tokens())

    async def on_progress(value, total, message):
        started.set()

    async def long_call(*, task_status=anyio.TASK_STATUS_IGNORED):
        with anyio.CancelScope() as scope:
            task_status.started(scope)
            outcome.append(
                await session.call_tool(
                    "slow_count", {"steps": 50, "delay_ms": 100}, progress_callback=on_progress
                )
            )

    began = time.monotonic()
    with within(ARRIVAL_TIMEOUT_S, "cancel: the call starts, reports progress and is cancelled"):
        async with anyio.create_task_group() as group:
            scope = await group.start(long_call)
            await started.wait()
            # The session uses the request id as the progress token: the progress notification
            # (which the message handler sees too) names the request to cancel.
            await wait_until(lambda: set(progress_tokens()) - earlier_tokens)
            (request_id,) = set(progress_tokens()) - earlier_tokens
            cancelled_at = time.monotonic()
            scope.cancel()
            await session.send_notification(
                types.ClientNotification(
                    types.CancelledNotification(
                        params=types.CancelledNotificationParams(requestId=request_id, reason="interop test cancels")
                    )
                )
            )
    unblocked = time.monotonic() - cancelled_at
    check(not outcome, "cancel: the cancelled call did not complete", f"got {outcome[0].model_dump_json()}" if outcome else "")
    check(
        unblocked < 2.0,
        "cancel: the client is released at once",
        f"{unblocked:.3f} s after cancelling",
    )
    print(
        f"   (cancelled request {request_id} {cancelled_at - began:.3f} s after the call, at its first progress;"
        f" released in {unblocked * 1000:.1f} ms)",
        flush=True,
    )

    # The server reads messages in order: once the ping that follows the cancel is answered,
    # the cancel has been handled, and nothing more may come for the cancelled request.
    step("ping after the cancel")
    with within(ARRIVAL_TIMEOUT_S, "cancel: ping still answered"):
        await session.send_ping()
    check(True, "cancel: ping still answered")
    handled_at = time.monotonic()
    # Four delays' worth of time: a server still counting would send progress meanwhile.
    await anyio.sleep(0.4)
    late = seen.progress_for(request_id, since=handled_at)
    check(not late, "cancel: no progress for the cancelled request after the cancel", json.dumps([p.model_dump() for p in late]))
    stray = [e for e in seen.errors if "unknown request ID" in str(e)]
    check(not stray, "cancel: the server sent no response to the cancelled request", "; ".join(map(str, stray)))

    step("tools/list after the cancel")
    with within(ARRIVAL_TIMEOUT_S, "cancel: tools/list still answered"):
        listed = await session.list_tools()
    check(
        "slow_count" in {t.name for t in listed.tools}, "cancel: tools/list still answered", f"got {[t.name for t in listed.tools]}"
    )
    step("slow_count after the cancel")
    with within(ARRIVAL_TIMEOUT_S, "cancel: a new call of slow_count still works"):
        again = await session.call_tool("slow_count", {"steps": 1, "delay_ms": 1})
    check(text_of(again) == "counted to 1", "cancel: a new call of slow_count still works", json.dumps(texts(again)))


async def check_elicitation(session, seen):
    step("confirm_action answered accept")
    seen.elicitation_answers.append(types.ElicitResult(action="accept", content={"confirmed": True, "note": "ok"}))
    result = await session.call_tool("confirm_action", {"action": "deploy"})
    check(len(seen.elicitation_requests) == 1, "elicitation: the callback was called once", f"{len(seen.elicitation_requests)} calls")
    request = seen.elicitation_requests[0]
    check(
        isinstance(request, types.ElicitRequestFormParams) and "deploy" in request.message,
        "elicitation: the request is a form whose message names the action",
        request.model_dump_json(),
    )
    schema = request.requestedSchema
    properties = schema.get("properties", {})
    check(
        schema.get("type") == "object"
        and properties.get("confirmed", {}).get("type") == "boolean"
        and properties.get("note", {}).get("type") == "string",
        "elicitation: requestedSchema has confirmed (boolean) and note (string)",
        json.dumps(schema),
    )
    check(schema.get("required") == ["confirmed"], 'elicitation: requestedSchema.required is ["confirmed"]', json.dumps(schema))
    check(not result.isError, "elicitation: accept succeeds", result.model_dump_json())
    text = text_of(result)
    check(
        text.startswith("confirmed") and "ok" in text,
        'elicitation: accept gives "confirmed" with the note',
        json.dumps(text),
    )

    step("confirm_action answered decline")
    seen.elicitation_answers.append(types.ElicitResult(action="decline"))
    result = await session.call_tool("confirm_action", {"action": "deploy"})
    check(len(seen.elicitation_requests) == 2, "elicitation: the callback was called again", f"{len(seen.elicitation_requests)} calls")
    check("declined" in text_of(result), 'elicitation: decline gives "declined"', json.dumps(texts(result)))


async def check_sampling(session, seen):
    step("ask_model")
    question = "What is six times seven?"
    seen.sampling_answer = types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="42"),
        model="interop-model",
        stopReason="endTurn",
    )
    result = await session.call_tool("ask_model", {"question": question})
    check(len(seen.sampling_requests) == 1, "sampling: the callback was called once", f"{len(seen.sampling_requests)} calls")
    request = seen.sampling_requests[0]
    blocks = [block for message in request.messages for block in message.content_as_list]
    check(
        len(request.messages) == 1
        and request.messages[0].role == "user"
        and len(blocks) == 1
        and blocks[0].type == "text"
        and blocks[0].text == question,
        "sampling: the request is the question as one user text message",
        request.model_dump_json(),
    )
    check(not result.isError, "sampling: ask_model succeeds", result.model_dump_json())
    check(text_of(result) == "42", 'sampling: the result is the model\'s "42"', json.dumps(texts(result)))


async def check_logging(session, seen):
    step("log_levels at the default level")
    seen.log_messages.clear()
    result = await session.call_tool("log_levels", {})
    check(not result.isError, "logging: log_levels succeeds", result.model_dump_json())
    levels = lambda: [m.level for m in seen.log_messages]  # noqa: E731
    await wait_until(lambda: len(seen.log_messages) >= len(LEVELS))
    await anyio.sleep(SETTLE_S)
    check(levels() == LEVELS, "logging: before setLevel all five levels arrive, in order", json.dumps(levels()))
    check(
        all(m.logger == "companion" for m in seen.log_messages),
        'logging: the logger is "companion"',
        json.dumps([m.model_dump() for m in seen.log_messages]),
    )

    step("logging/setLevel warning")
    await session.set_logging_level("warning")
    check(True, "logging: setLevel warning is accepted")
    seen.log_messages.clear()
    step("log_levels at level warning")
    result = await session.call_tool("log_levels", {})
    check(not result.isError, "logging: log_levels succeeds again", result.model_dump_json())
    await wait_until(lambda: len(seen.log_messages) >= 2)
    await anyio.sleep(SETTLE_S)
    got = levels()
    check(not {"debug", "info", "notice"} & set(got), "logging: after setLevel warning no debug, info or notice", json.dumps(got))
    check(got == ["warning", "error"], "logging: after setLevel warning, warning and error arrive", json.dumps(got))


async def check_list_changed(session, seen):
    step("add_greeter")
    before = len(seen.tool_list_changes())
    result = await session.call_tool("add_greeter", {"name": "ana"})
    check(not result.isError, "list_changed: add_greeter succeeds", result.model_dump_json())
    arrived = await wait_until(lambda: len(seen.tool_list_changes()) > before)
    check(arrived, "list_changed: notifications/tools/list_changed arrives", f"none within {ARRIVAL_TIMEOUT_S} s")
    step("tools/list after add_greeter")
    listed = await session.list_tools()
    names = [t.name for t in listed.tools]
    check("greet_ana" in names, "list_changed: tools/list includes greet_ana", json.dumps(names))
    step("tools/call greet_ana")
    greeted = await session.call_tool("greet_ana", {})
    check(not greeted.isError, "list_changed: greet_ana succeeds", greeted.model_dump_json())
    check(text_of(greeted) == "Hello, ana!", 'list_changed: greet_ana says "Hello, ana!"', json.dumps(texts(greeted)))


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
        if failures:
            print(f"FAILED - {failures[0]}", flush=True)
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
