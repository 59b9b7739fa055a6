// A real authorization server for tests/auth.rs: the certified `oidc-provider`, configured for
// the client credentials grant with resource indicators (RFC 8707), issuing JWT access tokens
// (RFC 9068) whose audience is the resource asked for.
//
// It listens on a free port of 127.0.0.1 and prints one JSON line: the issuer, the signing
// key's id and private key (PKCS#8 PEM, so the test can forge tokens "the issuer signed"), its
// public key (PEM, for the HMAC-with-a-public-key attack), and an outsider's private key the
// issuer does not publish. Each `rotate` line on stdin replaces the signing key (a key
// rotation: the old key leaves the key set) and prints the line again. It exits when stdin
// closes.
//
// Clients (client_secret_basic, secret: the id and `-secret`): `writer` may get `notes:write`,
// `reader` no scope, and `opaque` gets opaque tokens (not JWTs) that the protected server asks
// about at the introspection endpoint (RFC 7662) as the client `mcp-server`.

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Provider from 'oidc-provider';

function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomUUID();
  return {
    kid,
    jwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' },
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }),
  };
}

function provider(issuer, key) {
  return new Provider(issuer, {
    clients: [
      {
        client_id: 'writer',
        client_secret: 'writer-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: 'notes:write',
      },
      {
        client_id: 'opaque',
        client_secret: 'opaque-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: 'notes:write',
      },
      {
        client_id: 'mcp-server',
        client_secret: 'mcp-server-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
      },
      {
        client_id: 'reader',
        client_secret: 'reader-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
      },
    ],
    scopes: ['notes:write'],
    jwks: { keys: [key.jwk] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A token is always for one resource, named in the request.
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource, client) => ({
          scope: 'notes:write',
          audience: resource,
          accessTokenTTL: 300,
          ...(client.clientId === 'opaque'
            ? { accessTokenFormat: 'opaque' }
            : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
        }),
      },
    },
  });
}

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const outsider = newKey();
  let handler;
  const announce = () => {
    const key = newKey();
    handler = provider(issuer, key).callback();
    console.log(JSON.stringify({
      issuer,
      kid: key.kid,
      private_pem: key.pem,
      public_pem: key.publicPem,
      outsider_pem: outsider.pem,
    }));
  };
  server.on('request', (req, res) => handler(req, res));
  announce();
  createInterface({ input: process.stdin })
    .on('line', (line) => {
      if (line.trim() === 'rotate') announce();
    })
    .on('close', () => process.exit(0));
});
