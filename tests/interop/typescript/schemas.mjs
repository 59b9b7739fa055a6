// Interoperability test: every tool's inputSchema of the shapes server (examples/shapes.rs)
// against ajv, the validator of the TypeScript MCP SDK, set up three ways:
//
// - `sdk`: the SDK's own validator (`AjvJsonSchemaValidator`: draft-07 ajv, `strict: false`,
//   formats checked), which the client uses for outputSchema;
// - `strict-07`: `new Ajv({ strict: true })` with ajv-formats, the strict setup the SDK's
//   documentation shows (unknown keywords, unknown formats, type unions and loose tuples
//   refused at compile time);
// - `strict-2020`: the same with ajv's JSON Schema 2020-12 class (`Ajv2020`), the dialect
//   MCP declares for schemas without `$schema`.
//
// Each inputSchema must also hold no `$ref` and no `null` in a type union, an enum, a
// `const` or an `anyOf`/`oneOf` branch, at any depth. Then each sample of
// `tests/interop/shapes.json` is validated: `valid` ones must pass every validator and the
// tool must accept them (its structuredContent checked by the client against the
// outputSchema), `invalid` ones must fail every validator.
//
// Usage: node schemas.mjs SERVER_COMMAND [ARG...]. Prints one line per check, `all checks
// passed` at the end, and exits non-zero at the first failure. Run by `tests/interop.rs`.

import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SAMPLES = JSON.parse(readFileSync(new URL('../shapes.json', import.meta.url), 'utf8'));

function strict(AjvClass) {
  const ajv = new AjvClass({ strict: true, allErrors: true });
  addFormats(ajv);
  // Compile errors and strict-mode complaints both fail the check.
  return (schema) => {
    const validate = ajv.compile(schema);
    return (data) => validate(data);
  };
}

const sdkValidator = new AjvJsonSchemaValidator();
const VALIDATORS = {
  sdk: (schema) => {
    const validate = sdkValidator.getValidator(schema);
    return (data) => validate(data).valid;
  },
  'strict-07': strict(Ajv),
  'strict-2020': strict(Ajv2020),
};

// Any warning (ajv logs strict-mode complaints it does not throw for) fails the run.
const complaints = [];
console.warn = (...args) => complaints.push(args.join(' '));

function fail(message) {
  console.log(`FAILED ${message}`);
  process.exit(1);
}

function ok(message) {
  if (complaints.length > 0) fail(`${message}: warnings: ${complaints.join('; ')}`);
  console.log(`ok ${message}`);
}

// Where, in `schema`, a `$ref` or a `null` alternative is; null if nowhere.
function unclean(schema, where = '#') {
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) {
      const found = unclean(item, `${where}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (schema === null || typeof schema !== 'object') return null;
  if ('$ref' in schema) return `${where}/$ref`;
  if ('$defs' in schema) return `${where}/$defs`;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return `${where}/type`;
  if (schema.type === 'null' && where !== '#') return `${where}/type`;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return `${where}/enum`;
  if ('const' in schema && schema.const === null) return `${where}/const`;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (key === 'properties' || key === 'patternProperties') {
      for (const [name, sub] of Object.entries(value)) {
        const found = unclean(sub, `${where}/${key}/${name}`);
        if (found) return found;
      }
      continue;
    }
    const found = unclean(value, `${where}/${key}`);
    if (found) return found;
  }
  return null;
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
  const client = new Client({ name: 'mcp-interop-schemas', version: '0.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    const expected = Object.keys(SAMPLES).sort();
    if (JSON.stringify(names) !== JSON.stringify(expected)) {
      fail(`tools/list: the tools are ${names}, the samples are for ${expected}`);
    }
    for (const tool of tools) {
      const schema = tool.inputSchema;
      const found = unclean(schema);
      if (found) fail(`${tool.name}: inputSchema has a $ref or a null alternative at ${found}: ${JSON.stringify(schema)}`);
      ok(`${tool.name}: no $ref, no null alternative`);
      const { valid, invalid } = SAMPLES[tool.name];
      for (const [name, compile] of Object.entries(VALIDATORS)) {
        let validate;
        try {
          validate = compile(schema);
        } catch (error) {
          fail(`${tool.name}: ${name} refuses the inputSchema: ${error.message}\n${JSON.stringify(schema)}`);
        }
        for (const sample of valid) {
          if (!validate(sample)) fail(`${tool.name}: ${name} rejects the valid sample ${JSON.stringify(sample)}`);
        }
        for (const sample of invalid) {
          if (validate(sample)) fail(`${tool.name}: ${name} accepts the invalid sample ${JSON.stringify(sample)}`);
        }
        ok(`${tool.name}: ${name} compiles the inputSchema and checks ${valid.length + invalid.length} samples`);
      }
      for (const sample of valid) {
        const result = await client.callTool({ name: tool.name, arguments: sample });
        if (result.isError) fail(`${tool.name}: the server refused ${JSON.stringify(sample)}: ${JSON.stringify(result.content)}`);
      }
      ok(`${tool.name}: the server takes every valid sample, its results match the outputSchema`);
    }
    console.log('all checks passed');
  } finally {
    await client.close();
  }
}

main().catch((error) => fail(error?.stack ?? String(error)));
