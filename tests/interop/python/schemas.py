"""Interoperability test: every tool's inputSchema of the shapes server (examples/shapes.rs)
against Python `jsonschema`, the validator of the Python MCP SDK.

Usage: schemas.py SERVER_COMMAND [ARG...]

Lists the tools through the official client (`mcp.ClientSession`), then for each inputSchema:
no `$ref` and no `null` alternative at any depth; the schema passes `check_schema` of the JSON
Schema 2020-12 meta-schema (what `jsonschema.validate`, used by the SDK for outputSchema, does
first) and of draft 7 (which many hosts still assume); each sample of
`tests/interop/shapes.json` is validated with formats checked: `valid` ones must pass and the
tool must accept them (the SDK checks the structuredContent against the outputSchema),
`invalid` ones must fail. Prints one line per check, `all checks passed` at the end, and exits
non-zero at the first failure. Run by `tests/interop.rs`.
"""

import asyncio
import json
import os
import pathlib
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SAMPLES = json.loads((pathlib.Path(__file__).parent.parent / "shapes.json").read_text())
VALIDATORS = {
    "draft2020-12": jsonschema.Draft202012Validator,
    "draft7": jsonschema.Draft7Validator,
}
DATA_KEYWORDS = {"enum", "const", "default", "examples"}


class CheckFailed(Exception):
    pass


def check(condition, what):
    if not condition:
        raise CheckFailed(what)
    print(f"ok - {what}", flush=True)


def unclean(schema, where="#"):
    """Where, in `schema`, a `$ref` or a `null` alternative is; None if nowhere."""
    if isinstance(schema, list):
        for i, item in enumerate(schema):
            found = unclean(item, f"{where}/{i}")
            if found:
                return found
        return None
    if not isinstance(schema, dict):
        return None
    for key in ("$ref", "$defs"):
        if key in schema:
            return f"{where}/{key}"
    kind = schema.get("type")
    if (isinstance(kind, list) and "null" in kind) or (kind == "null" and where != "#"):
        return f"{where}/type"
    if None in schema.get("enum", []):
        return f"{where}/enum"
    if "const" in schema and schema["const"] is None:
        return f"{where}/const"
    for key, value in schema.items():
        if key in DATA_KEYWORDS:
            continue
        if key in ("properties", "patternProperties"):
            for name, sub in value.items():
                found = unclean(sub, f"{where}/{key}/{name}")
                if found:
                    return found
            continue
        found = unclean(value, f"{where}/{key}")
        if found:
            return found
    return None


async def run(command, args):
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            names = sorted(tool.name for tool in tools)
            check(names == sorted(SAMPLES), f"tools/list: the tools are the sampled ones ({names})")
            for tool in tools:
                schema = tool.inputSchema
                found = unclean(schema)
                check(found is None, f"{tool.name}: no $ref, no null alternative (found {found}: {json.dumps(schema)})")
                samples = SAMPLES[tool.name]
                for name, cls in VALIDATORS.items():
                    try:
                        cls.check_schema(schema)
                    except jsonschema.SchemaError as error:
                        raise CheckFailed(f"{tool.name}: {name} refuses the inputSchema: {error.message}")
                    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
                    for sample in samples["valid"]:
                        errors = [e.message for e in validator.iter_errors(sample)]
                        check(not errors, f"{tool.name}: {name} accepts {json.dumps(sample)} {errors or ''}")
                    for sample in samples["invalid"]:
                        check(not validator.is_valid(sample), f"{tool.name}: {name} rejects {json.dumps(sample)}")
                for sample in samples["valid"]:
                    result = await session.call_tool(tool.name, sample)
                    check(not result.isError, f"{tool.name}: the server takes {json.dumps(sample)} {'' if not result.isError else result.content}")


def first_check_failed(error):
    """The first `CheckFailed` in `error` or, for an exception group, among its leaves."""
    if isinstance(error, CheckFailed):
        return error
    for inner in getattr(error, "exceptions", ()):
        found = first_check_failed(inner)
        if found is not None:
            return found
    return None


async def main(argv):
    if len(argv) < 2:
        print("usage: schemas.py SERVER_COMMAND [ARG...]", file=sys.stderr)
        return 2
    try:
        await asyncio.wait_for(run(argv[1], argv[2:]), 30)
    except BaseException as error:  # the client's task group wraps what is raised in a group
        failure = first_check_failed(error)
        if failure is None:
            print(f"FAILED - the client raised {type(error).__name__}: {error}", flush=True)
            raise
        print(f"FAILED - {failure}", flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv)))
