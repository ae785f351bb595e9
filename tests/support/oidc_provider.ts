// A real authorization server for the auth tests (issue 45): panva's oidc-provider, an OpenID
// Certified implementation, run in this process through Deno's Node compatibility on a free port
// on 127.0.0.1 (its issuer is that URL, no trailing slash). What the tests need of it:
// - client credentials for statically registered confidential clients (client_secret_basic, as
//   the MCP SDK's ClientCredentialsProvider sends them), with Resource Indicators (RFC 8707): a
//   token asked for with `resource=R` has `aud: R` and the scopes asked for, as a JWT access token
//   (RFC 9068, `typ: at+jwt`, RS256) or, for the `opaque` client, an opaque one;
// - introspection (RFC 7662) and revocation (RFC 7009) for the opaque ones;
// - discovery at /.well-known/openid-configuration and /.well-known/oauth-authorization-server;
// - keys the test controls: oidc-provider reads its keys once, at construction, so all of them
//   are given then and a middleware in front of its JWKS route publishes only some (a key not
//   yet rotated in stays unknown to verifiers, as with a real rotation); the key that signs is
//   chosen per token (getResourceServerInfo's jwt.sign.kid), so rotation needs no restart and
//   keeps every issued token. The same middleware takes the JWKS down and counts its fetches.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import { memoryAdapter } from "./oidc_adapter.ts";

/** A confidential client registered with the provider (client_secret_basic). */
export interface OidcClient {
  readonly id: string;
  readonly secret: string;
}

/** The clients every provider has: only `grant_types: ["client_credentials"]`. */
export const OIDC_CLIENTS = {
  /** Gets JWT access tokens. */
  app: { id: "ramify-app", secret: "ramify-app-secret" },
  /** Gets opaque access tokens, which only introspection can read. */
  opaque: { id: "ramify-opaque", secret: "ramify-opaque-secret" },
  /** The resource server's own credentials: the one client allowed to introspect any token. */
  api: { id: "ramify-api", secret: "ramify-api-secret" },
} as const satisfies Record<string, OidcClient>;

/** The scopes every resource grants unless `scopes` says otherwise (the example's, issue 45). */
export const OIDC_SCOPES = ["books:read", "books:write", "catalog:admin"] as const;

export interface OidcProviderOptions {
  /** The scopes a token may carry, for any resource (default OIDC_SCOPES). */
  readonly scopes?: readonly string[];
  /** Signing keys made at start: the first published and signing, the others for rotateKeys (3). */
  readonly keys?: number;
  /** Access-token lifetime in seconds (600). */
  readonly ttl?: number;
}

/** A token endpoint's answer, whatever it was. */
export interface TokenAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A running provider. Every URL is on 127.0.0.1. */
export interface OidcProvider {
  /** The issuer identifier (`iss` of its tokens): `http://127.0.0.1:PORT`. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  readonly introspectionEndpoint: string;
  readonly revocationEndpoint: string;
  readonly clients: typeof OIDC_CLIENTS;
  readonly scopes: readonly string[];
  /** POSTs `params` to the token endpoint as `client` (default app): status and JSON, unchecked. */
  tokenResponse(params: Record<string, string>, client?: OidcClient): Promise<TokenAnswer>;
  /**
   * A client-credentials access token for `resource` (RFC 8707) with `scope` (space-separated):
   * a JWT unless `client` is OIDC_CLIENTS.opaque. Throws unless every scope asked was granted
   * (the provider drops unknown scopes silently; here that is a mistake in the test).
   */
  tokenFor(resource: string, scope?: string, client?: OidcClient): Promise<string>;
  /** tokenFor as the opaque client: a token only introspection can read. */
  opaqueTokenFor(resource: string, scope?: string): Promise<string>;
  /** RFC 7662 introspection as `client` (default api): the JSON answer (`active`, ...). */
  introspect(token: string, client?: OidcClient): Promise<Record<string, unknown>>;
  /** RFC 7009 revocation as `client` (default opaque): the status (200 when done). */
  revoke(token: string, client?: OidcClient): Promise<number>;
  /** The `kid` new tokens are signed with. */
  readonly signingKid: string;
  /** The `kid`s the JWKS lists now, in order. */
  publishedKids(): string[];
  /** Publishes the next key and signs new tokens with it; the old ones stay listed. Its kid. */
  rotateKeys(): string;
  /** Lists only the signing key: tokens signed with an earlier one no longer verify. */
  dropOldKey(): void;
  /** The JWKS answers 503 until jwksUp(); everything else keeps working. */
  jwksDown(): void;
  jwksUp(): void;
  /** How many times its JWKS was asked for (answered or down), to see a verifier's caching. */
  jwksFetches(): number;
  /**
   * Signs `claims` as the provider would (RS256, `typ: at+jwt`) with its key `kid` (default the
   * signing one), adding nothing: for tokens it would never issue (expired, wrong `iss`, ...).
   */
  sign(claims: JWTPayload, kid?: string): Promise<string>;
  /** The public key `kid` as a JWK, as the JWKS lists it. */
  publicJwk(kid?: string): Promise<JWK>;
  stop(): Promise<void>;
}

interface Key {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly jwk: JWK;
}

// The slice of oidc-provider's (untyped) surface used here.
interface ProviderClient {
  readonly clientId: string;
}
interface KoaContext {
  readonly path: string;
  status: number;
  body: unknown;
}
interface ProviderInstance {
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
}
type ProviderClass = new (issuer: string, configuration: object) => ProviderInstance;

let loaded: Promise<ProviderClass> | undefined;

/** oidc-provider, imported once. */
function providerClass(): Promise<ProviderClass> {
  loaded ??= (async () => {
    // It warns at import that it supports only Node LTS; Deno runs it (the harness's tests prove
    // what is used), so that one line is not printed into every test's output.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes("Unsupported runtime")) warn(...args);
    };
    try {
      return (await import("oidc-provider")).default as ProviderClass;
    } finally {
      console.warn = warn;
    }
  })();
  return loaded;
}

async function makeKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...await exportJWK(privateKey), kid, alg: "RS256", use: "sig" };
  return { kid, privateKey, publicKey, jwk };
}

/** Starts a provider; stop() it when done (or use withOidcProvider). */
export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProvider> {
  const scopes = [...(options.scopes ?? OIDC_SCOPES)];
  const ttl = options.ttl ?? 600;
  const keys = await Promise.all(
    Array.from({ length: options.keys ?? 3 }, (_, i) => makeKey(`key-${i + 1}`)),
  );
  let signing = 0;
  const published = new Set([keys[0].kid]);
  let down = false;
  let fetches = 0;

  const Provider = await providerClass();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const clients = Object.values(OIDC_CLIENTS).map((client) => ({
    client_id: client.id,
    client_secret: client.secret,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
  }));
  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    jwks: { keys: keys.map((key) => key.jwk) },
    clients,
    // Set, so that it prints no notice that a deployment should choose them.
    ttl: { AccessToken: ttl, ClientCredentials: ttl },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: ProviderClient, token: ProviderClient) =>
          client.clientId === OIDC_CLIENTS.api.id || client.clientId === token.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: ProviderClient, token: ProviderClient) =>
          client.clientId === token.clientId,
      },
      resourceIndicators: {
        enabled: true,
        // Any resource the test names is a resource server of this provider, with every scope.
        getResourceServerInfo: (_ctx: unknown, resource: string, client: ProviderClient) => ({
          scope: scopes.join(" "),
          audience: resource,
          accessTokenTTL: ttl,
          accessTokenFormat: client.clientId === OIDC_CLIENTS.opaque.id ? "opaque" : "jwt",
          jwt: { sign: { alg: "RS256", kid: keys[signing].kid } },
        }),
      },
    },
  });
  provider.use(async (ctx, next) => {
    if (ctx.path !== "/jwks") return await next();
    fetches++;
    if (down) {
      ctx.status = 503;
      ctx.body = { error: "temporarily_unavailable" };
      return;
    }
    await next();
    const listed = (ctx.body as { keys: JWK[] }).keys;
    ctx.body = { keys: listed.filter((key) => published.has(key.kid!)) };
  });
  server.on("request", provider.callback());

  const tokenEndpoint = `${issuer}/token`;
  const post = (url: string, params: Record<string, string>, client: OidcClient) =>
    fetch(url, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(params),
    });
  const keyOf = (kid: string) => {
    const key = keys.find((each) => each.kid === kid);
    if (key === undefined) throw new Error(`no key ${kid} (keys: ${keys.map((k) => k.kid)})`);
    return key;
  };

  const self: OidcProvider = {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint,
    introspectionEndpoint: `${issuer}/token/introspection`,
    revocationEndpoint: `${issuer}/token/revocation`,
    clients: OIDC_CLIENTS,
    scopes,
    async tokenResponse(params, client = OIDC_CLIENTS.app) {
      const response = await post(tokenEndpoint, params, client);
      return { status: response.status, body: await response.json() };
    },
    async tokenFor(resource, scope = "", client = OIDC_CLIENTS.app) {
      const params = { grant_type: "client_credentials", resource, scope };
      const { status, body } = await self.tokenResponse(params, client);
      if (status !== 200) throw new Error(`token endpoint: ${status} ${JSON.stringify(body)}`);
      const granted = new Set(String(body.scope ?? "").split(" "));
      const missing = scope.split(" ").filter((each) => each !== "" && !granted.has(each));
      if (missing.length > 0) {
        throw new Error(`not granted: ${missing.join(" ")} (add them to the provider's scopes)`);
      }
      return body.access_token as string;
    },
    opaqueTokenFor(resource, scope) {
      return self.tokenFor(resource, scope, OIDC_CLIENTS.opaque);
    },
    async introspect(token, client = OIDC_CLIENTS.api) {
      return await (await post(self.introspectionEndpoint, { token }, client)).json();
    },
    async revoke(token, client = OIDC_CLIENTS.opaque) {
      const response = await post(self.revocationEndpoint, { token }, client);
      await response.body?.cancel();
      return response.status;
    },
    get signingKid() {
      return keys[signing].kid;
    },
    publishedKids: () => keys.filter((key) => published.has(key.kid)).map((key) => key.kid),
    rotateKeys() {
      if (signing + 1 >= keys.length) {
        throw new Error(`no key left to rotate to: start with a larger \`keys\` (${keys.length})`);
      }
      signing++;
      published.add(keys[signing].kid);
      return keys[signing].kid;
    },
    dropOldKey() {
      published.clear();
      published.add(keys[signing].kid);
    },
    jwksDown() {
      down = true;
    },
    jwksUp() {
      down = false;
    },
    jwksFetches: () => fetches,
    sign(claims, kid = keys[signing].kid) {
      return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid })
        .sign(keyOf(kid).privateKey);
    },
    async publicJwk(kid = keys[signing].kid) {
      return { ...await exportJWK(keyOf(kid).publicKey), kid, alg: "RS256", use: "sig" };
    },
    stop() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections (fetch keeps them) would hold close() open.
        server.closeAllConnections();
      });
    },
  };
  return self;
}

/** Starts a provider for the duration of `run`, stopped however `run` ends. */
export async function withOidcProvider<T>(
  run: (provider: OidcProvider) => Promise<T>,
  options?: OidcProviderOptions,
): Promise<T> {
  const provider = await startOidcProvider(options);
  try {
    return await run(provider);
  } finally {
    await provider.stop();
  }
}
