// Interoperability test: the official TypeScript MCP client v2 (@modelcontextprotocol/client)
// against the gift and companion servers, revision 2026-07-28.
//
// Usage: node modern.mjs [--sdk-default] gifts|companion (URL | SERVER_COMMAND [ARG...])
//
// Connects `Client` over Streamable HTTP (a URL, `StreamableHTTPClientTransport`) or over stdio
// (the server command, spawned by `StdioClientTransport`). By default the client negotiates
// with `versionNegotiation: { mode: 'auto' }`, the SDK's way to speak 2026-07-28 (its
// constructor's default is still 'legacy'): it probes `server/discover` and, when the server
// answers it, sends no `initialize` and every request carries its revision in `_meta`.
// `--sdk-default` leaves the option out, so the client runs its default, the 2025 handshake.
//
// Against `gifts`: the negotiated revision, the tool (a call and a business error), the
// catalog resource and its category template, the congratulation prompt and completion of its
// argument. Against `companion`: its tools, `confirm_action` answered through the elicitation
// handler and `ask_model` through the sampling handler, registered with `setRequestHandler`
// (in the 2026-07-28 era the SDK answers the server's input-required result through them and
// retries by itself, and the messages the transport carried show that round trip); progress;
// log messages at the `logLevel` a request names (2026-07-28); and a tool added at run time,
// seen through the client's `listChanged` option (through `subscriptions/listen` in 2026-07-28). Anything the
// client reports through `onerror`, `console.warn`/`console.error` or a process warning fails
// the run. Prints one line per check and exits non-zero at the first failure. Run by
// `tests/interop.rs`; install the client with `scripts/install-test-tools`.

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const OVERALL_TIMEOUT_MS = 30_000;
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
// How long a notification the server owes may take to show up, and how long to wait before
// concluding that one it must not send did not come.
const ARRIVAL_TIMEOUT_MS = 5_000;
const SETTLE_MS = 300;
const TOOL = 'suggest_gifts';
const CATALOG_URI = 'mcp://gift-server/resources/gift_catalog';
const CATEGORY_TEMPLATE = 'mcp://gift-server/resources/gift_catalog/{category}';
const PROMPT = 'gift_congrats_style';
const COMPANION_TOOLS = ['slow_count', 'confirm_action', 'ask_model', 'log_levels', 'add_greeter'];
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;

class CheckFailed extends Error {}

// What the client is doing, for the message when it fails with an exception of its own.
let currentStep = 'connecting';
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
const textOf = (result) => texts(result).join('');
const show = (value) => JSON.stringify(value);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition, timeoutMs = ARRIVAL_TIMEOUT_MS) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() >= deadline) return false;
    await sleep(10);
  }
  return true;
}

// What the client complained about by itself: errors passed to `client.onerror` (a line that
// is not a JSON-RPC message, a response to no request, a request the modern era forbids), and
// anything written through `console.warn`/`console.error` or emitted as a process warning.
const complaints = [];
for (const level of ['warn', 'error']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    complaints.push(`console.${level}: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}`);
    original(...args);
  };
}
process.on('warning', (warning) => complaints.push(`process warning: ${warning.name}: ${warning.message}`));

// Every message the transport carried, in order: ['sent' | 'received', message]. Over stdio
// the client probes `server/discover` on a sibling process, so that probe is not among them;
// over HTTP it is, without its answer, which the client takes before `onmessage` is chained.
const wire = [];
const sent = () => wire.filter(([way]) => way === 'sent').map(([, m]) => m);
const received = () => wire.filter(([way]) => way === 'received').map(([, m]) => m);

// What the handlers were asked, and the answers they give, in order.
const answers = { elicitations: [], elicitationAnswers: [], samplings: [], samplingAnswers: [], logs: [], toolLists: [] };

// Checks that awaiting `request` rejects and that the server answered it with the error
// `code`, as the transport read it: the SDK folds some codes into one error class (a missing
// resource is its `ResourceNotFoundError`, code -32602, whatever the wire said).
async function expectError(code, what, request) {
  let result;
  try {
    result = await request;
  } catch (error) {
    const answer = received().filter((m) => m.error !== undefined).at(-1);
    check(
      error instanceof ProtocolError && answer?.error.code === code,
      what,
      `the client raised ${error?.name} ${error?.code}: ${error?.message}; the server answered ${show(answer)}`,
    );
    return;
  }
  throw new CheckFailed(`${what}, got a result: ${show(result)}`);
}

function checkEra(client, mode, name) {
  const version = client.getNegotiatedProtocolVersion();
  if (mode === 'legacy') {
    check(version === LEGACY && client.getProtocolEra() === 'legacy', `SDK default: negotiated ${LEGACY}`, `got ${version}`);
    check(client.getDiscoverResult() === undefined, 'SDK default: through initialize, without server/discover');
  } else {
    check(version === MODERN && client.getProtocolEra() === 'modern', `auto: negotiated ${MODERN}`, `got ${version}`);
    const discover = client.getDiscoverResult();
    check(
      discover?.supportedVersions?.includes(MODERN) && discover.supportedVersions.includes(LEGACY),
      `server/discover: supportedVersions has ${MODERN} and ${LEGACY}`,
      show(discover),
    );
  }
  const info = client.getServerVersion();
  check(info?.name === name, `serverInfo.name is ${name}`, `got ${show(info)}`);
}

// In the 2026-07-28 era: every request the client sent names the revision in `_meta`, none is
// `initialize`, and every result the server sent is tagged with its resultType and the server.
function checkModernWire(name) {
  const requests = sent().filter((m) => m.method !== undefined && m.id !== undefined);
  check(
    requests.length > 0 && requests.every((m) => m.params?._meta?.[PROTOCOL_VERSION_KEY] === MODERN),
    `wire: every request names ${MODERN} in _meta`,
    show(requests.filter((m) => m.params?._meta?.[PROTOCOL_VERSION_KEY] !== MODERN)),
  );
  check(!requests.some((m) => m.method === 'initialize'), 'wire: no initialize');
  const results = received().filter((m) => m.result !== undefined);
  const untagged = results.filter(
    (m) => typeof m.result.resultType !== 'string' || m.result._meta?.[SERVER_INFO_KEY]?.name !== name,
  );
  check(
    results.length > 0 && untagged.length === 0,
    'wire: every result carries resultType and serverInfo in _meta',
    show(untagged),
  );
  const serverRequests = received().filter((m) => m.method !== undefined && m.id !== undefined);
  check(serverRequests.length === 0, 'wire: the server sent no request', show(serverRequests));
}

async function checkGifts(client, mode) {
  checkEra(client, mode, 'gift-server');
  const capabilities = client.getServerCapabilities();
  check(
    capabilities?.tools && capabilities.resources && capabilities.prompts,
    'capabilities: tools, resources and prompts',
    show(capabilities),
  );
  check(
    (client.getInstructions() ?? '').startsWith('Call suggest_gifts'),
    "the instructions are the gift server's",
    show(client.getInstructions()),
  );

  step('tools/list');
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === TOOL);
  check(tool !== undefined, `tools/list: ${TOOL} is listed`, show(tools.map((t) => t.name)));
  check(
    show([...(tool.inputSchema.required ?? [])].sort()) === show(['budget', 'occasion']),
    `tools/list: ${TOOL} requires occasion and budget`,
    show(tool.inputSchema),
  );

  step(`tools/call ${TOOL}`);
  const result = await client.callTool({ name: TOOL, arguments: { occasion: 'birthday', budget: 30 } });
  check(!result.isError, `tools/call: ${TOOL} succeeds`, show(result));
  const gifts = result.structuredContent?.gifts ?? [];
  check(
    gifts.length > 0 && gifts.every((g) => g.price <= 30),
    'tools/call: structuredContent has gifts within the budget',
    show(result),
  );
  check(show(JSON.parse(textOf(result))) === show(result.structuredContent), 'tools/call: the text is the structured content');

  step(`tools/call ${TOOL} beyond the catalog`);
  const failed = await client.callTool({ name: TOOL, arguments: { occasion: 'wedding', budget: 1 } });
  check(
    failed.isError === true && textOf(failed).includes('cheapest'),
    'tools/call: a budget nothing fits is a tool error naming the cheapest gift',
    show(failed),
  );

  step('resources/list');
  const { resources } = await client.listResources();
  check(resources.some((r) => r.uri === CATALOG_URI), 'resources/list: the catalog is listed', show(resources));
  const { resourceTemplates } = await client.listResourceTemplates();
  check(
    resourceTemplates.some((t) => t.uriTemplate === CATEGORY_TEMPLATE),
    'resources/templates/list: the category template is listed',
    show(resourceTemplates),
  );

  step('resources/read of the catalog');
  const read = await client.readResource({ uri: CATALOG_URI });
  check(read.contents.length === 1, 'resources/read: one content', show(read));
  const contents = read.contents[0];
  check(contents.mimeType === 'application/json', 'resources/read: mimeType is application/json', show(read));
  const catalog = JSON.parse(contents.text);
  check(
    (catalog.categories ?? []).some((c) => c.name === 'books'),
    'resources/read: the catalog lists its categories',
    contents.text,
  );

  step('resources/read through the template');
  const books = await client.readResource({ uri: CATEGORY_TEMPLATE.replace('{category}', 'books') });
  check(JSON.parse(books.contents[0].text).name === 'books', 'resources/read: the template reads the books category', show(books));
  step('resources/read of an unknown category');
  const unknown = CATEGORY_TEMPLATE.replace('{category}', 'socks');
  if (mode === 'legacy') {
    await expectError(RESOURCE_NOT_FOUND, 'resources/read: an unknown category is -32002', client.readResource({ uri: unknown }));
  } else {
    await expectError(INVALID_PARAMS, 'resources/read: an unknown category is -32602', client.readResource({ uri: unknown }));
  }

  step('prompts/list');
  const { prompts } = await client.listPrompts();
  check(prompts.some((p) => p.name === PROMPT), `prompts/list: ${PROMPT} is listed`, show(prompts));

  step(`prompts/get ${PROMPT}`);
  const prompt = await client.getPrompt({ name: PROMPT, arguments: { tone: 'formal' } });
  const first = prompt.messages[0];
  check(
    first?.role === 'user' && first.content.text.includes('formal'),
    "prompts/get: the first message is the user's, in the formal tone",
    show(prompt),
  );

  step("completion/complete of the prompt's tone");
  const tone = await client.complete({ ref: { type: 'ref/prompt', name: PROMPT }, argument: { name: 'tone', value: 'w' } });
  check(show(tone.completion.values) === show(['warm']), 'completion: the tone "w" completes to ["warm"]', show(tone));

  if (mode !== 'legacy') {
    checkModernWire('gift-server');
  }
}

async function checkCompanion(client, mode) {
  checkEra(client, mode, 'companion');

  step('tools/list');
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(COMPANION_TOOLS.every((n) => names.includes(n)), 'tools/list: the five companion tools are listed', show(names));

  step('confirm_action answered accept');
  const from = wire.length;
  answers.elicitationAnswers.push({ action: 'accept', content: { confirmed: true, note: 'ok' } });
  const accepted = await client.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
  check(answers.elicitations.length === 1, 'elicitation: the handler was called once', `${answers.elicitations.length} calls`);
  const question = answers.elicitations[0];
  const schema = question.requestedSchema ?? {};
  check(
    question.message.includes('deploy') &&
      schema.properties?.confirmed?.type === 'boolean' &&
      show(schema.required) === show(['confirmed']),
    'elicitation: the question names the action and requires confirmed (boolean)',
    show(question),
  );
  check(!accepted.isError, 'elicitation: accept succeeds', show(accepted));
  check(
    textOf(accepted) === 'confirmed: deploy (note: ok)',
    'elicitation: accept gives "confirmed: deploy (note: ok)"',
    show(texts(accepted)),
  );
  const round = wire.slice(from);
  if (mode === 'legacy') {
    check(
      round.some(([way, m]) => way === 'received' && m.method === 'elicitation/create' && m.id !== undefined),
      'elicitation: the server asked with an elicitation/create request',
      show(round),
    );
  } else {
    checkInputRequiredRound(round);
  }

  step('confirm_action answered decline');
  answers.elicitationAnswers.push({ action: 'decline' });
  const declined = await client.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
  check(answers.elicitations.length === 2, 'elicitation: the handler was called again', `${answers.elicitations.length} calls`);
  check(textOf(declined).startsWith('declined'), 'elicitation: decline gives "declined"', show(texts(declined)));

  step('ask_model');
  answers.samplingAnswers.push({
    role: 'assistant',
    content: { type: 'text', text: '42' },
    model: 'interop-model',
    stopReason: 'endTurn',
  });
  const asked = await client.callTool({ name: 'ask_model', arguments: { question: 'What is six times seven?' } });
  check(answers.samplings.length === 1, 'sampling: the handler was called once', `${answers.samplings.length} calls`);
  check(!asked.isError && textOf(asked) === '42', 'sampling: the result is the model\'s "42"', show(asked));

  await checkProgress(client);
  if (mode !== 'legacy') {
    await checkLogLevel(client);
  }
  await checkListChanged(client);
  if (mode !== 'legacy') {
    checkModernWire('companion');
  }
}

// Progress as the server sent it (three notifications for the call's token, all before its
// result) and as the client passed it on: the client may hand the last ones, read in the same
// chunk as the result, to onerror as progress for a token it has retired (typescript-sdk#2580,
// as with the v1 client), so those are set aside here rather than counted as complaints.
async function checkProgress(client) {
  step('slow_count with progress');
  const from = wire.length;
  const progress = [];
  const result = await client.callTool(
    { name: 'slow_count', arguments: { steps: 3, delay_ms: 20 } },
    { onprogress: (p) => progress.push(p) },
  );
  check(textOf(result) === 'counted to 3', 'progress: slow_count gives "counted to 3"', show(result));
  const call = wire.slice(from).find(([way, m]) => way === 'sent' && m.method === 'tools/call')[1];
  const token = call.params._meta?.progressToken;
  const after = wire.slice(from).filter(([way]) => way === 'received').map(([, m]) => m);
  const answeredAt = after.findIndex((m) => m.id === call.id);
  const sent = after.filter((m) => m.method === 'notifications/progress' && m.params.progressToken === token);
  check(
    show(sent.map((m) => [m.params.progress, m.params.total])) === show([[1, 3], [2, 3], [3, 3]]) &&
      after.slice(answeredAt + 1).every((m) => m.method !== 'notifications/progress'),
    'progress: the server sent 1 to 3 of 3, all before the result',
    show(after),
  );
  const late = complaints.filter((c) => c.includes('unknown token') && c.includes(`"progressToken":${show(token)}`));
  complaints.splice(0, complaints.length, ...complaints.filter((c) => !late.includes(c)));
  if (late.length > 0) {
    console.log(`   (the client sent ${late.length} of them to onerror, read with the result: typescript-sdk#2580)`);
  }
  const values = progress.map((p) => p.progress);
  check(
    values.length + late.length === 3 && values.every((v, i) => v === i + 1),
    'progress: onprogress received them in order',
    show(progress),
  );
}

async function checkLogLevel(client) {
  step('log_levels without a logLevel');
  answers.logs.length = 0;
  await client.callTool({ name: 'log_levels', arguments: {} });
  await sleep(SETTLE_MS);
  check(answers.logs.length === 0, 'logging: a request without a logLevel gets no log message', show(answers.logs));

  step('log_levels at logLevel warning');
  await client.callTool({ name: 'log_levels', arguments: {}, _meta: { [LOG_LEVEL_KEY]: 'warning' } });
  await waitUntil(() => answers.logs.length >= 2);
  await sleep(SETTLE_MS);
  const levels = answers.logs.map((m) => m.level);
  check(show(levels) === show(['warning', 'error']), 'logging: at logLevel warning, warning and error arrive', show(levels));
}

// The client's `listChanged` option: on a 2026-07-28 connection it opens `subscriptions/listen`
// when it connects, on a 2025 one it takes the session's notifications; either way it fetches
// the new list for `onChanged`.
async function checkListChanged(client) {
  step('add_greeter');
  const added = await client.callTool({ name: 'add_greeter', arguments: { name: 'ana' } });
  check(!added.isError, 'list changed: add_greeter succeeds', show(added));
  const arrived = await waitUntil(() => answers.toolLists.length > 0);
  check(arrived, 'list changed: onChanged is called', `not within ${ARRIVAL_TIMEOUT_MS / 1000} s`);
  const [changed] = answers.toolLists;
  check(
    changed.error === null && (changed.tools ?? []).some((t) => t.name === 'greet_ana'),
    'list changed: the new list has greet_ana',
    show(changed),
  );
  const greeted = await client.callTool({ name: 'greet_ana', arguments: {} });
  check(textOf(greeted) === 'Hello, ana!', 'list changed: greet_ana says "Hello, ana!"', show(greeted));
}

// The messages of one confirm_action call in the 2026-07-28 era: the call, the server's
// input-required result asking one elicitation, the client's retry carrying the answer under
// the same key and the requestState echoed, and the complete result.
function checkInputRequiredRound(round) {
  const calls = round.filter(([way, m]) => way === 'sent' && m.method === 'tools/call').map(([, m]) => m);
  const resultOf = (request) => round.find(([way, m]) => way === 'received' && m.id === request.id)?.[1]?.result;
  check(calls.length === 2, 'input required: the client sent tools/call twice', show(round));
  const [call, retry] = calls;
  const asked = resultOf(call);
  check(asked?.resultType === 'input_required', 'input required: the first answer is input_required', show(asked));
  const keys = Object.keys(asked.inputRequests ?? {});
  check(
    keys.length === 1 && asked.inputRequests[keys[0]].method === 'elicitation/create',
    'input required: it asks one elicitation/create',
    show(asked),
  );
  check(typeof asked.requestState === 'string' && asked.requestState.length > 0, 'input required: with a requestState', show(asked));
  check(
    retry.params.name === 'confirm_action' &&
      show(retry.params.arguments) === show(call.params.arguments) &&
      show(Object.keys(retry.params.inputResponses ?? {})) === show(keys) &&
      retry.params.requestState === asked.requestState &&
      retry.id !== call.id,
    'input required: the retry carries the answer under its key and the requestState, with a new id',
    show(retry),
  );
  const done = resultOf(retry);
  check(done?.resultType === 'complete', 'input required: the retry is answered complete', show(done));
}

async function run(mode, server, target) {
  const http = /^https?:\/\//.test(target[0]);
  // The server's stderr goes to ours, so a failing run shows the server's complaints too.
  const transport = http
    ? new StreamableHTTPClientTransport(new URL(target[0]))
    : new StdioClientTransport({ command: target[0], args: target.slice(1), env: process.env, stderr: 'inherit' });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push(['sent', message]);
    return send(message, options);
  };
  // The client chains a handler set before `connect`: this sees each message, in order,
  // before the client dispatches it.
  transport.onmessage = (message) => {
    wire.push(['received', message]);
  };

  const client = new Client(
    { name: 'mcp-interop-typescript2', version: '0.0.0' },
    {
      capabilities: { elicitation: {}, sampling: {} },
      listChanged: { tools: { onChanged: (error, tools) => answers.toolLists.push({ error, tools }) } },
      ...(mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {}),
    },
  );
  client.onerror = (error) => {
    complaints.push(`onerror (${currentStep}): ${error?.message ?? error}`);
  };
  client.setRequestHandler('elicitation/create', async (request) => {
    answers.elicitations.push(request.params);
    if (answers.elicitationAnswers.length === 0) {
      throw new ProtocolError(-32600, 'this test expected no elicitation now');
    }
    return answers.elicitationAnswers.shift();
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    answers.logs.push(notification.params);
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    answers.samplings.push(request.params);
    if (answers.samplingAnswers.length === 0) {
      throw new ProtocolError(-32600, 'this test expected no sampling now');
    }
    return answers.samplingAnswers.shift();
  });

  step(`connecting (${mode === 'auto' ? "versionNegotiation 'auto'" : 'the SDK default'})`);
  await client.connect(transport);
  try {
    if (server === 'gifts') {
      await checkGifts(client, mode);
    } else {
      await checkCompanion(client, mode);
    }
    // Checked before closing: closing aborts the client's own streams (the GET stream of a
    // 2025 session over HTTP), which it may report through onerror.
    check(complaints.length === 0, 'the client complained about nothing', complaints.join('; '));
  } finally {
    step('closing');
    await client.close().catch(() => {});
  }
}

async function main(argv) {
  let mode = 'auto';
  if (argv[0] === '--sdk-default') {
    mode = 'legacy';
    argv = argv.slice(1);
  }
  if (argv.length < 2 || !['gifts', 'companion'].includes(argv[0])) {
    console.error('usage: node modern.mjs [--sdk-default] gifts|companion (URL | SERVER_COMMAND [ARG...])');
    return 2;
  }
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new CheckFailed(`the client did not finish within ${OVERALL_TIMEOUT_MS / 1000} s (stuck at: ${currentStep})`)),
      OVERALL_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([run(mode, argv[0], argv.slice(1)), timeout]);
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
  }
  console.log('all checks passed');
  return 0;
}

// Exit explicitly: a server process that will not die must not keep the test waiting.
process.exit(await main(process.argv.slice(2)));
