// The official TypeScript SDK client's OAuth support against a protected server
// (tests/auth.rs): it is refused with 401, follows the challenge to the Protected Resource
// Metadata, finds the authorization server, gets a token with the client credentials grant
// for the resource, and calls `whoami` and `write_note`.
//
// Usage: node oauth.mjs MCP_URL CLIENT_ID CLIENT_SECRET SCOPE
// Prints one line per result; exits non-zero at the first failure.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

const [url, clientId, clientSecret, scope] = process.argv.slice(2);
const authProvider = new ClientCredentialsProvider({ clientId, clientSecret, scope });
const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
const client = new Client({ name: 'oauth-interop', version: '1.0.0' });

const timer = setTimeout(() => {
  console.error('timed out');
  process.exit(2);
}, 30_000);

try {
  await client.connect(transport);
  for (const name of ['whoami', 'write_note']) {
    const result = await client.callTool({ name, arguments: { text: 'from the TypeScript SDK' } });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
    console.log(`${name}: ${result.content[0].text}`);
  }
  await client.close();
} catch (error) {
  console.error(`failed: ${error?.stack ?? error}`);
  process.exit(1);
} finally {
  clearTimeout(timer);
}
