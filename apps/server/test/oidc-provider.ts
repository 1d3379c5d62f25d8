import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** What the test provider says about a person: the claims of their ID token. */
export interface TestOidcAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestOidcAccount>;
  /** Serves another key set at the JWKS address (same key id) while the provider signs with its own. */
  serveForeignKeys(on: boolean): void;
  close(): Promise<void>;
}

async function signingKey(kid: string) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/**
 * A real OpenID provider (`oidc-provider`, the certified Node implementation) on loopback, with its
 * development login pages: any password signs in the account named in the login field. Consent is
 * granted by itself, so a sign-in is login form -> back to `redirectUri`.
 */
export async function startOidcProvider(options: {
  redirectUris: string[];
  accounts?: Record<string, TestOidcAccount>;
}): Promise<TestOidcProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const clientId = 'dataplatform-test';
  const clientSecret = 'provider-client-secret-0123456789';
  const ownKey = await signingKey('key-1');
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...foreignPublic } = await signingKey('key-1');
  let foreign = false;

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [ownKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The e-mail claims go in the ID token itself, which is what the platform reads.
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account }) };
    },
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  };
  const provider = new Provider(issuer, configuration);
  provider.use(async (ctx, next) => {
    if (foreign && ctx.path === '/jwks') {
      ctx.type = 'application/jwk-set+json';
      ctx.body = { keys: [foreignPublic] };
      return;
    }
    await next();
  });
  const handle = provider.callback();
  server.on('request', (request, response) => {
    void handle(request, response);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    serveForeignKeys(on) {
      foreign = on;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A browser's cookies, as far as following the provider's redirects needs. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const index = pair!.indexOf('=');
        cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
      }
    },
  };
}

/**
 * Does what a person does at the provider: opens the authorization URL, signs in as `accountId` on
 * the login page, and follows the redirects until one leaves the provider. Answers that URL (the
 * platform's callback with `code` and `state`).
 */
export async function signInAtProvider(authorizationUrl: string, accountId: string): Promise<URL> {
  const jar = cookieJar();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    jar.take(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      await response.arrayBuffer();
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200 || !html.includes('name="login"')) {
      throw new Error(`provider answered ${response.status}: ${html.slice(0, 500)}`);
    }
    // The development login page: its form posts back to the interaction's own address.
    body = new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' });
  }
  throw new Error('too many redirects at the provider');
}
