/**
 * `auth()`: a guard middleware for bearer tokens, API keys and cookies. It
 * reads the credential from the request (for a GraphQL subscription, from the
 * connection parameters too), asks `verify` for the user it names and puts
 * that user in the context as `user`. No credential, or one `verify` refuses,
 * is `401 Unauthorized` with `WWW-Authenticate`; a user `allow` refuses is
 * `403 Forbidden`. Every surface shows these its own way: problem+json over
 * HTTP, `UNAUTHENTICATED` / `FORBIDDEN` GraphQL errors, MCP tool errors,
 * command-line exit 1. The OpenAPI document lists the guard's security scheme
 * and each guarded operation's `security`.
 *
 * @example
 * ```ts
 * import { api, auth, op, use } from "@ramify/api";
 *
 * const users = new Map([["s3cret", { id: "7", admin: false }]]);
 * const signedIn = auth({ from: "bearer", verify: (token) => users.get(token) });
 * const admin = auth({
 *   from: "bearer",
 *   verify: (token) => users.get(token),
 *   allow: (user) => user.admin,
 * });
 *
 * const tree = api({
 *   me: op((_input, ctx) => ctx.user, use(signedIn)),
 *   wipe: op(() => undefined, use(admin)),
 * });
 * ```
 *
 * @module
 */

import type { HandlerContext } from "../tree/node.ts";
import type { Middleware, MiddlewareCall, Security } from "../tree/middleware.ts";
import { HttpError } from "./problem.ts";
import { isToken } from "../tree/reply.ts";

/**
 * Where a guard finds its credential: `"bearer"` (`Authorization: Bearer …`),
 * a header (an API key) or a cookie.
 *
 * @example
 * ```ts
 * import type { CredentialSource } from "@ramify/api/http";
 *
 * const key: CredentialSource = { header: "x-api-key" };
 * ```
 */
export type CredentialSource =
  | "bearer"
  | { readonly header: string }
  | { readonly cookie: string };

/**
 * Options of {@linkcode auth}.
 *
 * @example
 * ```ts
 * import type { AuthOptions } from "@ramify/api/http";
 *
 * const opts: AuthOptions<{ id: string }> = {
 *   from: { cookie: "sid" },
 *   verify: (sid) => sid === "abc" ? { id: "7" } : undefined,
 * };
 * ```
 */
export interface AuthOptions<User> {
  /** Where the credential is. */
  readonly from: CredentialSource;
  /** The user a credential names, or `undefined` when it names none (401). */
  readonly verify: (
    credential: string,
    context: HandlerContext,
  ) => User | undefined | Promise<User | undefined>;
  /** Whether the user may make this call; `false` is 403. Default: any user may. */
  readonly allow?: (user: User, call: MiddlewareCall) => boolean | Promise<boolean>;
  /** The scheme's name in the OpenAPI document. Default `bearerAuth`, `apiKeyAuth` or `cookieAuth`. */
  readonly name?: string;
  /** The scopes the OpenAPI document lists for guarded operations. Default none. */
  readonly scopes?: readonly string[];
  /** The scheme's description in the OpenAPI document. */
  readonly description?: string;
  /** The realm named in `WWW-Authenticate`. Default `api`. */
  readonly realm?: string;
}

/**
 * A guard: the user a credential names, added to the context as `user`.
 *
 * @example
 * ```ts
 * import { auth } from "@ramify/api/http";
 *
 * const apiKey = auth({ from: { header: "x-api-key" }, verify: (key) => key === "k1" ? "svc" : undefined });
 * console.log(apiKey.security?.scheme); // { type: "apiKey", in: "header", name: "x-api-key" }
 * ```
 *
 * @throws {TypeError} for a header or cookie name that is not an HTTP token.
 */
export function auth<User>(opts: AuthOptions<User>): Middleware<{ readonly user: User }> {
  const source = describe(opts.from);
  const realm = (opts.realm ?? "api").replaceAll(/["\\\r\n]/g, "");
  const challenge = (invalid: boolean) =>
    `${source.challenge} realm="${realm}"${
      invalid && opts.from === "bearer" ? `, error="invalid_token"` : ""
    }`;
  const guard = async (
    call: MiddlewareCall,
    next: (added: { readonly user: User }) => Promise<unknown>,
  ): Promise<unknown> => {
    const credential = source.read(call.context);
    if (credential === undefined || credential === "") {
      throw new HttpError(401, `This operation needs ${source.needs}`, {
        headers: { "www-authenticate": challenge(false) },
      });
    }
    const user = await opts.verify(credential, call.context);
    if (user === undefined) {
      throw new HttpError(401, `The ${source.what} is not valid`, {
        headers: { "www-authenticate": challenge(true) },
      });
    }
    if (opts.allow !== undefined && !(await opts.allow(user, call))) {
      throw new HttpError(403, "The credential does not allow this operation");
    }
    return next({ user });
  };
  const security: Security = {
    name: opts.name ?? source.name,
    scheme: {
      ...source.scheme,
      ...(opts.description === undefined ? {} : { description: opts.description }),
    },
    scopes: opts.scopes ?? [],
  };
  return Object.assign(guard, { security });
}

interface Source {
  readonly name: string;
  readonly scheme: Security["scheme"];
  readonly challenge: string;
  readonly needs: string;
  readonly what: string;
  readonly read: (context: HandlerContext) => string | undefined;
}

function describe(from: CredentialSource): Source {
  if (from === "bearer") {
    return {
      name: "bearerAuth",
      scheme: { type: "http", scheme: "bearer" },
      challenge: "Bearer",
      needs: "a bearer token (Authorization: Bearer <token>)",
      what: "bearer token",
      read: (context) => {
        const value = headerOf(context, "authorization");
        const match = value === undefined ? null : /^Bearer +([^ ]+) *$/i.exec(value);
        return match?.[1];
      },
    };
  }
  if ("header" in from) {
    const name = checked(from.header, "header");
    return {
      name: "apiKeyAuth",
      scheme: { type: "apiKey", in: "header", name },
      challenge: `ApiKey header="${name}",`,
      needs: `an API key in the ${name} header`,
      what: "API key",
      read: (context) => headerOf(context, name.toLowerCase()),
    };
  }
  const name = checked(from.cookie, "cookie");
  return {
    name: "cookieAuth",
    scheme: { type: "apiKey", in: "cookie", name },
    challenge: `Cookie cookie-name="${name}",`,
    needs: `the ${name} cookie`,
    what: `${name} cookie`,
    read: (context) => cookieOf(headerOf(context, "cookie"), name),
  };
}

function checked(name: string, kind: string): string {
  if (!isToken(name)) {
    throw new TypeError(`auth(): ${JSON.stringify(name)} is not a ${kind} name`);
  }
  return name;
}

/**
 * A header of the call: the request's, else (a GraphQL subscription) the
 * connection parameter of that name, as graphql-ws clients send credentials.
 */
function headerOf(context: HandlerContext, name: string): string | undefined {
  const fromRequest = context.request?.headers.get(name);
  if (fromRequest !== null && fromRequest !== undefined) return fromRequest;
  const params = context.connectionParams;
  if (typeof params !== "object" || params === null) return undefined;
  for (const key of Object.keys(params)) {
    const value = (params as Record<string, unknown>)[key];
    if (key.toLowerCase() === name && typeof value === "string") return value;
  }
  return undefined;
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
