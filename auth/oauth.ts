/**
 * `oauth(options)`: the tree as an OAuth 2.1 resource server. A guard
 * middleware, like `auth()` of `@ramify/api/http`, that takes a bearer token
 * from `Authorization` (or a GraphQL WebSocket's `authorization` connection
 * parameter), verifies it and puts the identity in the context as `user`:
 *
 * - a JWT is verified with `jose` against the issuer's keys (its JWKS,
 *   found from its metadata, kept, fetched again for an unknown `kid` at most
 *   once per `cooldownMs`): `iss`, `aud` (the resource), `exp`/`nbf` with
 *   `clockToleranceSec` of skew, and only asymmetric algorithms the issuer
 *   announces (never `none`, never an HMAC);
 * - another token goes to RFC 7662 introspection (`introspection`), else to
 *   `verify`, else is refused.
 *
 * Then the leaf's scopes (its `meta.scopes`, a subtree's included; else the
 * `scopes` defaults) must all be in the token's. No token: 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`; a token that
 * does not verify: 401 with `error="invalid_token"`; one in the query string:
 * 401 `error="invalid_request"`; a scope missing: 403
 * `error="insufficient_scope"`; an issuer whose keys or introspection cannot
 * be reached: 503 with `Retry-After`. No handler runs on a refusal, and no
 * message holds the token. `serve()` and `createFetch` publish the RFC 9728
 * metadata the challenges point to; the OpenAPI document lists the scheme
 * and each operation's scopes.
 *
 * @example
 * ```ts
 * import { api, op, use } from "@ramify/api";
 * import { oauth } from "@ramify/api/auth";
 *
 * const guard = oauth({
 *   issuer: "https://login.example",
 *   audience: "https://api.example",
 *   scopes: ({ tags }) => tags.readOnly ? [] : ["api:write"],
 * });
 * const tree = api({
 *   whoami: op((_input, ctx) => ctx.user.sub, use(guard), { tags: { readOnly: true } }),
 *   add: op((_input, ctx) => ctx.user.scope, use(guard), { scopes: ["books:write"] }),
 * });
 * ```
 *
 * @module
 */

import type { HandlerContext, Node, Tags } from "../tree/node.ts";
import type { Middleware, MiddlewareCall } from "../tree/middleware.ts";
import type { ProtectedResource, SecuredLeaf, SecurityScheme } from "../tree/security.ts";
import { tagsOf } from "../tree/tags.ts";
import { HttpError } from "../tree/http_error.ts";
import { errors } from "jose";
import { ASYMMETRIC, type Issuer, issuerOf, IssuerUnavailable } from "./_issuer.ts";
import { type Introspect, introspector } from "./_introspection.ts";
import { challengeOf, refusal, unavailable } from "./_refusal.ts";
import { type CallSource, isJwtShaped, tokenOf } from "./_token.ts";

/**
 * The identity a verified token names: what handlers read as `ctx.user`.
 *
 * @example
 * ```ts
 * import type { OAuthUser } from "@ramify/api/auth";
 *
 * const canWrite = (user: OAuthUser) => user.scope.includes("books:write");
 * ```
 */
export interface OAuthUser {
  /** The subject (`sub`): a user, or for client credentials often the client. */
  readonly sub: string | undefined;
  /** The granted scopes (`scope`, space-separated, or `scp`), as a list. */
  readonly scope: readonly string[];
  /** The client the token was issued to (`client_id`, else `azp`). */
  readonly client_id: string | undefined;
  /** The issuer (`iss`). */
  readonly iss: string | undefined;
  /** When the token expires (`exp`, seconds since the epoch). */
  readonly exp: number | undefined;
  /** Every claim, as the token (or its introspection, or `verify`) gave them. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * What a default scopes function is told of a leaf that declares none.
 *
 * @example
 * ```ts
 * import type { OAuthLeaf } from "@ramify/api/auth";
 *
 * const defaults = ({ tags }: OAuthLeaf) => tags.readOnly ? ["api:read"] : ["api:write"];
 * ```
 */
export interface OAuthLeaf {
  /** Its tags, implications applied (`readOnly` gives `idempotent`). */
  readonly tags: Tags;
  /** The leaf itself. */
  readonly leaf: Node;
}

/**
 * RFC 7662 introspection for opaque tokens, as the resource server's client.
 *
 * @example
 * ```ts
 * import type { OAuthIntrospection } from "@ramify/api/auth";
 *
 * const introspection: OAuthIntrospection = { clientId: "api", clientSecret: "s3cret" };
 * ```
 */
export interface OAuthIntrospection {
  /** The resource server's client id at the issuer. */
  readonly clientId: string;
  /** Its secret (sent with HTTP Basic). */
  readonly clientSecret: string;
  /** The endpoint. Default the metadata's `introspection_endpoint`. */
  readonly endpoint?: string;
  /** How long an answer is kept, by the token's SHA-256, never past its `exp`. Default 30 000 ms. */
  readonly cacheTtlMs?: number;
}

/**
 * Options of {@linkcode oauth}.
 *
 * @example
 * ```ts
 * import type { OAuthOptions } from "@ramify/api/auth";
 *
 * const options: OAuthOptions = {
 *   issuer: "https://login.example",
 *   audience: "https://api.example/mcp",
 *   cooldownMs: 5_000,
 * };
 * ```
 */
export interface OAuthOptions {
  /**
   * The issuer identifier (`iss`). Its metadata is read from
   * `/.well-known/oauth-authorization-server`, else
   * `/.well-known/openid-configuration`, once.
   */
  readonly issuer: string;
  /**
   * The resource identifier tokens must be issued for (`aud`, compared byte
   * for byte: the RFC 8707 `resource` clients ask with), or several; the first
   * is the resource the metadata publishes.
   */
  readonly audience: string | readonly string[];
  /** The key set's URL. Default the metadata's `jwks_uri`. */
  readonly jwks?: string;
  /**
   * The JWS algorithms accepted: asymmetric ones only. Default those the
   * issuer announces (`id_token_signing_alg_values_supported`), else every
   * asymmetric one.
   */
  readonly algorithms?: readonly string[];
  /** The least time between two fetches of the key set for an unknown `kid`. Default 30 000 ms. */
  readonly cooldownMs?: number;
  /** How long the key set is kept before it is fetched again. Default 600 000 ms (10 minutes). */
  readonly keysMaxAgeMs?: number;
  /** How long a fetch of the metadata, keys or introspection may take. Default 5 000 ms. */
  readonly timeoutMs?: number;
  /** The clock skew allowed on `exp` and `nbf`. Default 30 s. */
  readonly clockToleranceSec?: number;
  /** The longest token read: a longer one is refused unparsed. Default 8 KiB. */
  readonly maxTokenBytes?: number;
  /** Opaque tokens (not JWTs) are introspected (RFC 7662). */
  readonly introspection?: OAuthIntrospection;
  /**
   * The claims an opaque token names, or `undefined` for none (401): tried
   * after introspection, or without it.
   */
  readonly verify?: (
    token: string,
    context: HandlerContext,
  ) =>
    | Readonly<Record<string, unknown>>
    | undefined
    | Promise<Readonly<Record<string, unknown>> | undefined>;
  /**
   * The scopes a leaf that declares none (`meta.scopes`) needs: a list, or a
   * function of its tags. Default none: any valid token.
   */
  readonly scopes?: readonly string[] | ((leaf: OAuthLeaf) => readonly string[]);
  /** A page about the resource, published as `resource_documentation`. */
  readonly resourceDocumentation?: string;
  /** The scheme's name in the OpenAPI document. Default `oauth2`. */
  readonly name?: string;
  /**
   * The scheme the OpenAPI document shows. Default OpenID Connect:
   * `{ type: "openIdConnect", openIdConnectUrl: "<issuer>/.well-known/openid-configuration" }`;
   * give an `oauth2` scheme with its flows for an issuer without that document.
   */
  readonly scheme?: SecurityScheme;
}

const DEFAULTS = {
  cooldownMs: 30_000,
  keysMaxAgeMs: 600_000,
  timeoutMs: 5_000,
  clockToleranceSec: 30,
  maxTokenBytes: 8 * 1024,
  cacheTtlMs: 30_000,
} as const;

/**
 * A guard for tokens of one OAuth issuer: the verified identity in the
 * context as `user`, the leaf's scopes checked. Its `security` carries the
 * scheme, each leaf's scopes, the protected resource's metadata and
 * `authenticate(request, leaf?)` for edges that check a request ahead of a call.
 *
 * @example
 * ```ts
 * import { oauth } from "@ramify/api/auth";
 *
 * const guard = oauth({ issuer: "https://login.example", audience: "https://api.example/mcp" });
 * console.log(guard.security.resource?.metadataUrl);
 * // "https://api.example/.well-known/oauth-protected-resource/mcp"
 * ```
 *
 * @throws {TypeError} for an audience that is not an absolute URL or a list of none,
 * an algorithm that is `none` or symmetric, or a bound that is not a positive number.
 */
export function oauth(
  options: OAuthOptions,
): Middleware<{ readonly user: OAuthUser }> & { readonly security: OAuthSecurity } {
  const audience = typeof options.audience === "string" ? [options.audience] : [
    ...options.audience,
  ];
  if (audience.length === 0) throw new TypeError("oauth(): audience names no resource");
  const issuerUrl = absolute(options.issuer, "issuer");
  absolute(audience[0], "audience");
  const asymmetric = new Set<string>(ASYMMETRIC);
  for (const alg of options.algorithms ?? []) {
    if (!asymmetric.has(alg)) {
      throw new TypeError(`oauth(): algorithm ${alg} is not an asymmetric JWS algorithm`);
    }
  }
  const cooldownMs = bound(options.cooldownMs, DEFAULTS.cooldownMs, "cooldownMs", true);
  const timeoutMs = bound(options.timeoutMs, DEFAULTS.timeoutMs, "timeoutMs");
  const skew = bound(
    options.clockToleranceSec,
    DEFAULTS.clockToleranceSec,
    "clockToleranceSec",
    true,
  );
  const maxTokenBytes = bound(options.maxTokenBytes, DEFAULTS.maxTokenBytes, "maxTokenBytes");
  const issuer: Issuer = issuerOf({
    issuer: options.issuer,
    jwks: options.jwks,
    algorithms: options.algorithms,
    cooldownMs,
    keysMaxAgeMs: bound(options.keysMaxAgeMs, DEFAULTS.keysMaxAgeMs, "keysMaxAgeMs"),
    timeoutMs,
  });
  const introspect: Introspect | undefined = options.introspection === undefined
    ? undefined
    : introspector({
      endpoint: async () => {
        const endpoint = options.introspection?.endpoint ??
          (await issuer.metadata()).introspection_endpoint;
        if (endpoint === undefined) {
          throw new IssuerUnavailable("introspection endpoint (its metadata names none)");
        }
        return endpoint;
      },
      clientId: options.introspection.clientId,
      clientSecret: options.introspection.clientSecret,
      cacheTtlMs: bound(options.introspection.cacheTtlMs, DEFAULTS.cacheTtlMs, "cacheTtlMs", true),
      timeoutMs,
    });
  const resource = protectedResource(audience[0], options, issuerUrl);
  const defaults = options.scopes;
  const scopesFor = (leaf: SecuredLeaf): readonly string[] => {
    const declared = leaf.meta?.scopes;
    if (Array.isArray(declared)) return declared;
    if (defaults === undefined) return [];
    if (typeof defaults !== "function") return defaults;
    return defaults({ tags: tagsOf(leaf as Node), leaf: leaf as Node });
  };
  const retryAfter = Math.max(1, Math.ceil(cooldownMs / 1000));

  const identify = async (
    context: CallSource,
    needed: readonly string[],
  ): Promise<OAuthUser> => {
    const read = tokenOf(context);
    if (read.kind === "query") {
      throw refusal(
        resource,
        401,
        "A token in the query string (access_token) is refused: send it as Authorization: Bearer <token>",
        needed,
        "invalid_request",
      );
    }
    if (read.kind === "none") {
      throw refusal(
        resource,
        401,
        "This operation needs a bearer token (Authorization: Bearer <token>)",
        needed,
      );
    }
    const invalid = (why: string) =>
      refusal(resource, 401, `The bearer token ${why}`, needed, "invalid_token");
    const token = read.token;
    if (token.length > maxTokenBytes) throw invalid(`is longer than ${maxTokenBytes} bytes`);
    try {
      if (isJwtShaped(token)) {
        return identityOf(await issuer.verify(token, audience, skew));
      }
      const introspected = await introspect?.(token);
      // An introspection answer may name the token's audience and issuer: each must be ours.
      if (introspected !== undefined && !forUs(introspected.aud, audience)) {
        throw invalid("was issued for another resource");
      }
      if (introspected?.iss !== undefined && introspected.iss !== options.issuer) {
        throw invalid("was issued by another issuer");
      }
      const claims = introspected ?? (await options.verify?.(token, context as HandlerContext));
      if (claims === undefined) throw invalid("is not active or not known to this resource");
      return identityOf(claims);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof IssuerUnavailable) throw unavailable(error.message, retryAfter);
      if (error instanceof errors.JOSEError) throw invalid(whyNot(error));
      throw error;
    }
  };

  // The identity a token names, holding every scope `needed`.
  const authorized = async (context: CallSource, needed: readonly string[]) => {
    const user = await identify(context, needed);
    const missing = needed.filter((scope) => !user.scope.includes(scope));
    if (missing.length === 0) return user;
    throw refusal(
      resource,
      403,
      `The token lacks the scope${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`,
      needed,
      "insufficient_scope",
    );
  };
  const guard = async (
    call: MiddlewareCall,
    next: (added: { readonly user: OAuthUser }) => Promise<unknown>,
  ): Promise<unknown> => next({ user: await authorized(call.context, scopesFor(call.leaf)) });
  const security: OAuthSecurity = {
    name: options.name ?? "oauth2",
    scheme: options.scheme ?? {
      type: "openIdConnect",
      openIdConnectUrl: `${options.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
    },
    scopes: [],
    scopesFor,
    resource,
    authenticate: async (request, leaf) =>
      await authorized({ request }, leaf === undefined ? [] : scopesFor(leaf)),
  };
  return Object.assign(guard, { security });
}

/**
 * The `security` of an {@linkcode oauth} guard: every field an edge needs set.
 *
 * @example
 * ```ts
 * import { oauth, type OAuthSecurity } from "@ramify/api/auth";
 *
 * const security: OAuthSecurity = oauth({
 *   issuer: "https://login.example",
 *   audience: "https://api.example",
 * }).security;
 * console.log(security.resource.challenge({ scopes: ["books:write"] }));
 * // 'Bearer resource_metadata="https://api.example/.well-known/oauth-protected-resource", scope="books:write"'
 * ```
 */
export interface OAuthSecurity {
  /** The key under `components.securitySchemes`. */
  readonly name: string;
  /** The scheme the OpenAPI document shows. */
  readonly scheme: SecurityScheme;
  /** Always `[]`: the scopes are per leaf (`scopesFor`). */
  readonly scopes: readonly string[];
  /** The scopes a call of `leaf` needs: its `meta.scopes`, else the guard's defaults. */
  readonly scopesFor: (leaf: SecuredLeaf) => readonly string[];
  /** The protected resource: its metadata, where it is published, its challenge. */
  readonly resource: ProtectedResource;
  /**
   * The identity a request's token names, its scopes for `leaf` checked; or a
   * thrown `HttpError` (401, 403, 503) with the challenge in its headers.
   */
  readonly authenticate: (request: Request, leaf?: SecuredLeaf) => Promise<OAuthUser>;
}

function protectedResource(
  resource: string,
  options: OAuthOptions,
  issuer: string,
): ProtectedResource {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const base = "/.well-known/oauth-protected-resource";
  const metadataUrl = `${url.origin}${base}${path}`;
  return {
    metadata: {
      resource,
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
      ...(options.resourceDocumentation === undefined
        ? {}
        : { resource_documentation: options.resourceDocumentation }),
    },
    metadataUrl,
    metadataPaths: [...new Set([`${base}${path}`, base])],
    challenge: (challenge) => challengeOf(metadataUrl, challenge),
  };
}

/** The identity claims name: `scope` (space-separated) or `scp` (a list or a string). */
export function identityOf(claims: Readonly<Record<string, unknown>>): OAuthUser {
  const text = (value: unknown) => typeof value === "string" ? value : undefined;
  const raw = claims.scope ?? claims.scp;
  const scope = Array.isArray(raw)
    ? raw.filter((entry): entry is string => typeof entry === "string")
    : (text(raw) ?? "").split(" ").filter((entry) => entry !== "");
  return Object.freeze({
    sub: text(claims.sub),
    scope: Object.freeze(scope),
    client_id: text(claims.client_id) ?? text(claims.azp),
    iss: text(claims.iss),
    exp: typeof claims.exp === "number" ? claims.exp : undefined,
    claims: Object.freeze({ ...claims }),
  });
}

/** Whether an `aud` claim (absent, a string or a list) names one of the audiences. */
function forUs(aud: unknown, audience: readonly string[]): boolean {
  if (aud === undefined) return true;
  const named = Array.isArray(aud) ? aud : [aud];
  return named.some((entry) => typeof entry === "string" && audience.includes(entry));
}

/** Why jose refused a token, in words that hold nothing of it. */
function whyNot(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return "has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "was issued by another issuer";
    if (error.claim === "aud") return "was issued for another resource";
    if (error.claim === "nbf" || error.claim === "iat") return "is not valid yet";
    return `has a claim ${error.claim} this resource refuses`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return "is signed with an algorithm this resource does not accept";
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey
  ) return "is not signed by a key of the issuer";
  return "is not a valid JWT";
}

function absolute(value: string, what: string): string {
  if (!URL.canParse(value)) {
    throw new TypeError(`oauth(): ${what} ${JSON.stringify(value)} is not an absolute URL`);
  }
  return value;
}

function bound(value: number | undefined, fallback: number, name: string, zero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!zero && value === 0)) {
    throw new TypeError(`oauth(): ${name} must be a ${zero ? "non-negative" : "positive"} number`);
  }
  return value;
}
