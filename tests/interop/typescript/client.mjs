// Interoperability test: the official TypeScript MCP client (@modelcontextprotocol/sdk)
// against the gift server.
//
// Usage: node client.mjs SERVER_COMMAND [ARG...]
//
// Spawns the server over stdio with `StdioClientTransport`, drives it through `Client` and
// checks what a real client sees. Prints one line per check and exits non-zero at the first
// failure. Run by `tests/interop.rs`; install the client with `scripts/install-test-tools`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const OVERALL_TIMEOUT_MS = 30_000;
const TOOL = 'suggest_gifts';
const OCCASIONS = ['birthday', 'wedding', 'anniversary', 'graduation', 'housewarming'];

class CheckFailed extends Error {}

// What the client is doing, for the message when it fails with an exception of its own.
let currentStep = 'starting the server';
const step = (what) => {
  currentStep = what;
};

function check(condition, what, detail = '') {
  if (!condition) {
    throw new CheckFailed(detail ? `${what}: ${detail}` : what);
  }
  console.log(`ok - ${what}`);
}

const texts = (result) => (result.content ?? []).filter((b) => b.type === 'text').map((b) => b.text);
const show = (value) => JSON.stringify(value);

// Closed (stdin ended, then SIGTERM, then SIGKILL; at most ~4 s) however the run ends.
let transport;

async function run(command, args) {
  // The server's stderr goes to ours, so a failing run shows the server's complaints too.
  transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
  const client = new Client({ name: 'mcp-interop-typescript', version: '0.0.0' });
  step('initialize');
  await client.connect(transport);
  try {
    const info = client.getServerVersion();
    check(info?.name === 'gift-server', 'initialize: serverInfo.name is gift-server', `got ${show(info)}`);
    const capabilities = client.getServerCapabilities();
    check(capabilities?.tools !== undefined, 'initialize: the tools capability is present', `capabilities: ${show(capabilities)}`);

    // listTools also compiles a validator for each outputSchema; callTool then validates
    // structuredContent against it and throws when it does not conform.
    step('tools/list');
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === TOOL);
    check(tool !== undefined, `tools/list: ${TOOL} is listed`, `got ${show(tools.map((t) => t.name))}`);
    const schema = tool.inputSchema;
    const properties = schema.properties ?? {};
    check(
      schema.type === 'object' && ['occasion', 'budget', 'recipient'].every((p) => p in properties),
      'tools/list: inputSchema has properties occasion, budget, recipient',
      show(schema),
    );
    check(
      show([...(properties.occasion.enum ?? [])].sort()) === show([...OCCASIONS].sort()),
      'tools/list: occasion is an enum of the five occasions',
      show(properties.occasion),
    );
    check(properties.budget.type === 'number', 'tools/list: budget is a number', show(properties.budget));
    check(
      show([...(schema.required ?? [])].sort()) === show(['budget', 'occasion']),
      'tools/list: inputSchema.required is ["occasion", "budget"]',
      show(schema.required),
    );
    check(
      tool.outputSchema?.type === 'object' && 'gifts' in (tool.outputSchema.properties ?? {}),
      'tools/list: outputSchema describes an object with gifts',
      show(tool.outputSchema),
    );

    const budget = 50;
    step('tools/call with good arguments');
    const good = await client.callTool({
      name: TOOL,
      arguments: { occasion: 'birthday', budget, recipient: 'my sister, loves cooking' },
    });
    check(!good.isError, 'call: good arguments succeed', `result: ${show(good)}`);
    const structured = good.structuredContent;
    const gifts = structured?.gifts;
    check(Array.isArray(gifts) && gifts.length > 0, 'call: structuredContent.gifts is a non-empty list', show(structured));
    check(
      gifts.every((g) => typeof g.name === 'string' && typeof g.price === 'number'),
      'call: every gift has a name and a numeric price',
      show(gifts),
    );
    check(gifts.every((g) => g.price <= budget), `call: every price is within the budget of ${budget}`, show(gifts));
    const blocks = texts(good);
    check(blocks.length >= 1, 'call: the result has a text block', show(good));
    let parsed;
    try {
      parsed = JSON.parse(blocks[0]);
    } catch (error) {
      throw new CheckFailed(`call: the text block is not JSON (${error.message}): ${show(blocks[0])}`);
    }
    check(
      show(parsed) === show(structured),
      'call: the text block parses to the same JSON as structuredContent',
      `text: ${show(blocks[0])}, structuredContent: ${show(structured)}`,
    );

    step('tools/call with a budget string');
    const bad = await client.callTool({ name: TOOL, arguments: { occasion: 'birthday', budget: 'cem dólares' } });
    check(bad.isError === true, 'call: a budget string is a tool error (isError)', show(bad));
    check(texts(bad).some((t) => t.includes('budget')), "call: the tool error's text names budget", show(texts(bad)));

    step('tools/call with a budget no gift fits');
    const nothing = await client.callTool({ name: TOOL, arguments: { occasion: 'wedding', budget: 5 } });
    check(nothing.isError === true, 'call: a budget no gift fits is a tool error (isError)', show(nothing));

    step('tools/call of an unknown tool');
    let unknown;
    try {
      unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      check(error.code === -32602, 'call: an unknown tool is a JSON-RPC error -32602', `got code ${error.code}: ${error.message}`);
    }
    if (unknown !== undefined) {
      throw new CheckFailed(`call: an unknown tool should be a JSON-RPC error -32602, got a result: ${show(unknown)}`);
    }
  } finally {
    await client.close();
  }
}

async function main(argv) {
  if (argv.length < 1) {
    console.error('usage: node client.mjs SERVER_COMMAND [ARG...]');
    return 2;
  }
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new CheckFailed(`the session did not finish within ${OVERALL_TIMEOUT_MS / 1000} s (stuck at: ${currentStep})`)),
      OVERALL_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([run(argv[0], argv.slice(1)), timeout]);
  } catch (error) {
    if (error instanceof CheckFailed) {
      console.log(`FAILED - ${error.message}`);
    } else {
      console.log(`FAILED - ${currentStep}: the client raised ${error?.name ?? 'an error'}: ${error?.message ?? error}`);
      console.error(error);
    }
    return 1;
  } finally {
    clearTimeout(timer);
    await transport?.close().catch(() => {});
  }
  console.log('all checks passed');
  return 0;
}

// Exit explicitly: a server process that will not die must not keep the test waiting.
process.exit(await main(process.argv.slice(2)));
