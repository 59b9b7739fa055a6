// Interoperability test: the official TypeScript MCP client (@modelcontextprotocol/sdk)
// against the gift server.
//
// Usage: node client.mjs SERVER_COMMAND [ARG...]
//
// Spawns the server over stdio with `StdioClientTransport`, drives it through `Client` and
// checks what a real client sees: the tool, the catalog resource and its category template
// (read, subscribe), the congratulation prompt, and completion of the prompt's and the
// template's arguments. The transport parses every line against the SDK's JSON-RPC schema and
// each request validates its result against the method's result schema (a mismatch fails the
// request); capabilities are enforced (`enforceStrictCapabilities`), so each request also
// needs the capability the server advertised for it; anything the client reports through
// `onerror`, `console.warn`/`console.error` or a process warning fails the run. Prints one
// line per check and exits non-zero at the first failure. Run by `tests/interop.rs`; install
// the client with `scripts/install-test-tools`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const OVERALL_TIMEOUT_MS = 30_000;
const TOOL = 'suggest_gifts';
const OCCASIONS = ['birthday', 'wedding', 'anniversary', 'graduation', 'housewarming'];
const CATALOG_URI = 'mcp://gift-server/resources/gift_catalog';
const CATEGORY_TEMPLATE = 'mcp://gift-server/resources/gift_catalog/{category}';
const PROMPT = 'gift_congrats_style';
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

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

// What the client complained about by itself: errors passed to `client.onerror` (a line that
// is not a JSON-RPC message, a response to no request), and anything written through
// `console.warn`/`console.error` or emitted as a process warning while the session runs.
const complaints = [];
const wire = []; // every message from the server, as the transport parsed it
for (const level of ['warn', 'error']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    complaints.push(`console.${level}: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}`);
    original(...args);
  };
}
process.on('warning', (warning) => complaints.push(`process warning: ${warning.name}: ${warning.message}`));

/** The JSON a resource's text contents hold, or a CheckFailed for `what` saying why not. */
function jsonText(contents, what) {
  try {
    return JSON.parse(contents.text);
  } catch (error) {
    throw new CheckFailed(`${what}: the text is not JSON (${error.message}): ${show(contents.text)}`);
  }
}

/** Checks that `request` (a promise) rejects with an McpError whose code is `code`. */
async function expectError(code, what, request) {
  let result;
  try {
    result = await request;
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    check(error.code === code, what, `got code ${error.code}: ${error.message}`);
    return;
  }
  throw new CheckFailed(`${what}, got a result: ${show(result)}`);
}

// Closed (stdin ended, then SIGTERM, then SIGKILL; at most ~4 s) however the run ends.
let transport;

async function run(command, args) {
  // The server's stderr goes to ours, so a failing run shows the server's complaints too.
  transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
  // The client chains a handler set before `connect`: this sees each message, in order,
  // before the client dispatches it.
  transport.onmessage = (message) => {
    wire.push(message);
  };
  const client = new Client({ name: 'mcp-interop-typescript', version: '0.0.0' }, { enforceStrictCapabilities: true });
  client.onerror = (error) => {
    complaints.push(`client.onerror: ${error?.message ?? error}`);
  };
  step('initialize');
  await client.connect(transport);
  try {
    const info = client.getServerVersion();
    check(info?.name === 'gift-server', 'initialize: serverInfo.name is gift-server', `got ${show(info)}`);
    const capabilities = client.getServerCapabilities();
    check(capabilities?.tools !== undefined, 'initialize: the tools capability is present', `capabilities: ${show(capabilities)}`);
    check(
      capabilities?.resources?.subscribe === true && capabilities?.resources?.listChanged === true,
      'initialize: the resources capability has subscribe and listChanged',
      `capabilities: ${show(capabilities)}`,
    );
    check(capabilities?.prompts !== undefined, 'initialize: the prompts capability is present', `capabilities: ${show(capabilities)}`);
    check(
      capabilities?.completions !== undefined,
      'initialize: the completions capability is present',
      `capabilities: ${show(capabilities)}`,
    );

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

    await checkResources(client);
    await checkPrompts(client);
    await checkCompletion(client);

    check(complaints.length === 0, 'the client reported no error or warning', show(complaints));
    console.log(`   (${wire.length} messages from the server, each parsed by the client's schemas)`);
  } finally {
    await client.close();
  }
}

async function checkResources(client) {
  step('resources/list');
  const { resources } = await client.listResources();
  check(
    show(resources.map((r) => r.uri)) === show([CATALOG_URI]),
    'resources/list: exactly the catalog resource is listed',
    show(resources),
  );
  const catalog = resources[0];
  check(
    catalog.name === 'gift_catalog' &&
      catalog.description === 'Base catalog of gifts: categories with their brands and price ranges.' &&
      catalog.mimeType === 'application/json',
    'resources/list: the catalog has its name, description and mimeType application/json',
    show(catalog),
  );
  check(
    show(catalog.annotations?.audience) === show(['assistant']) && catalog.annotations?.priority === 0.8,
    'resources/list: the catalog is annotated for the assistant with priority 0.8',
    show(catalog),
  );

  step('resources/read of the catalog');
  const read = await client.readResource({ uri: CATALOG_URI });
  check(
    read.contents.length === 1 && typeof read.contents[0].text === 'string',
    'resources/read: the catalog is one text content',
    show(read),
  );
  const contents = read.contents[0];
  check(
    contents.uri === CATALOG_URI && contents.mimeType === 'application/json',
    "resources/read: the content has the catalog's uri and mimeType application/json",
    show({ ...contents, text: undefined }),
  );
  const categories = jsonText(contents, 'resources/read')?.categories;
  check(
    Array.isArray(categories) && categories.length > 0,
    "resources/read: the catalog's JSON has a non-empty categories list",
    contents.text,
  );
  check(
    categories.every(
      (c) =>
        typeof c.name === 'string' &&
        Array.isArray(c.brands) &&
        c.brands.every((b) => typeof b === 'string') &&
        typeof c.min_price === 'number' &&
        typeof c.max_price === 'number' &&
        c.min_price <= c.max_price,
    ),
    'resources/read: every category has a name, brands and min_price <= max_price',
    show(categories),
  );

  step('resources/templates/list');
  const { resourceTemplates } = await client.listResourceTemplates();
  const template = resourceTemplates.find((t) => t.uriTemplate === CATEGORY_TEMPLATE);
  check(template !== undefined, 'resources/templates/list: the category template is listed', show(resourceTemplates));
  check(
    template.name === 'gift_category' && template.title === 'Gift category',
    'resources/templates/list: the template is gift_category, titled "Gift category"',
    show(template),
  );

  step('resources/read of the books category');
  const booksUri = CATEGORY_TEMPLATE.replace('{category}', 'books');
  const books = await client.readResource({ uri: booksUri });
  check(
    books.contents.length === 1 &&
      typeof books.contents[0].text === 'string' &&
      books.contents[0].uri === booksUri &&
      books.contents[0].mimeType === 'application/json',
    'resources/read: the books category is one application/json text content',
    show(books),
  );
  const category = jsonText(books.contents[0], 'resources/read of books');
  check(
    category?.name === 'books' && Array.isArray(category.gifts) && category.gifts.length > 0,
    'resources/read: the category\'s JSON is named "books" with a non-empty gifts list',
    books.contents[0].text,
  );

  step('resources/read of an unknown category');
  await expectError(
    RESOURCE_NOT_FOUND,
    'resources/read: an unknown category (shoes) is error -32002',
    client.readResource({ uri: CATEGORY_TEMPLATE.replace('{category}', 'shoes') }),
  );
  step('resources/read of an unknown uri');
  await expectError(
    RESOURCE_NOT_FOUND,
    'resources/read: an unknown uri is error -32002',
    client.readResource({ uri: 'mcp://gift-server/nowhere' }),
  );

  step('resources/subscribe');
  await client.subscribeResource({ uri: CATALOG_URI });
  check(true, 'resources/subscribe: subscribing to the catalog succeeds');
  step('resources/unsubscribe');
  await client.unsubscribeResource({ uri: CATALOG_URI });
  check(true, 'resources/unsubscribe: unsubscribing from the catalog succeeds');
}

async function checkPrompts(client) {
  step('prompts/list');
  const { prompts } = await client.listPrompts();
  const prompt = prompts.find((p) => p.name === PROMPT);
  check(prompt !== undefined, `prompts/list: ${PROMPT} is listed`, `got ${show(prompts.map((p) => p.name))}`);
  check(
    prompt.title === 'Congratulation style' && typeof prompt.description === 'string' && prompt.description !== '',
    'prompts/list: the prompt has its title and a description',
    show(prompt),
  );
  const args = prompt.arguments ?? [];
  check(
    show(args.map((a) => a.name)) === show(['tone']) && !args[0].required && Boolean(args[0].description),
    'prompts/list: the prompt has one optional, described argument, tone',
    show(prompt),
  );

  step('prompts/get with tone playful');
  const playful = await client.getPrompt({ name: PROMPT, arguments: { tone: 'playful' } });
  check(
    show(playful.messages.map((m) => m.role)) === show(['user', 'assistant']),
    'prompts/get: the messages are from the user, then the assistant',
    show(playful),
  );
  check(
    playful.messages.every((m) => m.content.type === 'text' && m.content.text.includes('playful')),
    'prompts/get: every message is text mentioning "playful"',
    show(playful),
  );

  step('prompts/get without arguments');
  const warm = await client.getPrompt({ name: PROMPT });
  check(
    show(warm.messages.map((m) => m.role)) === show(['user', 'assistant']) &&
      warm.messages.every((m) => m.content.type === 'text' && m.content.text.includes('warm')),
    'prompts/get: without arguments the tone is "warm"',
    show(warm),
  );

  step('prompts/get of an unknown prompt');
  await expectError(INVALID_PARAMS, 'prompts/get: an unknown prompt is error -32602', client.getPrompt({ name: 'no_such_prompt' }));
}

async function checkCompletion(client) {
  step("completion/complete of the prompt's tone");
  const tone = await client.complete({ ref: { type: 'ref/prompt', name: PROMPT }, argument: { name: 'tone', value: 'w' } });
  check(
    show(tone.completion.values) === show(['warm']) && !tone.completion.hasMore,
    'completion: the prompt\'s tone "w" completes to ["warm"]',
    show(tone),
  );

  step("completion/complete of the template's category");
  const category = await client.complete({
    ref: { type: 'ref/resource', uri: CATEGORY_TEMPLATE },
    argument: { name: 'category', value: 'b' },
  });
  check(
    show(category.completion.values) === show(['boardgames', 'books']) && !category.completion.hasMore,
    'completion: the template\'s category "b" completes to ["boardgames", "books"]',
    show(category),
  );
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
