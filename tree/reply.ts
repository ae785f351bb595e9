/**
 * A result with response settings: a handler returns `reply(value, init)` to
 * choose its success status (201, 202, ...) and to set headers and cookies
 * beside its value. HTTP sends them; GraphQL, MCP and the command line receive
 * the value alone. The output schema checks the value as usual, and typed
 * clients receive the value's type.
 *
 * @example
 * ```ts
 * import { op, reply } from "@ramify/api/tree";
 *
 * const add = op(({ title }: { title: string }) =>
 *   reply({ id: "7", title }, { status: 201, headers: { location: "/books/7" } })
 * );
 * ```
 *
 * @module
 */

/**
 * A cookie to set (`Set-Cookie`). The value is percent-encoded when sent.
 *
 * @example
 * ```ts
 * import type { Cookie } from "@ramify/api/tree";
 *
 * const session: Cookie = { name: "sid", value: "abc", httpOnly: true, secure: true, sameSite: "Lax" };
 * ```
 */
export interface Cookie {
  /** The cookie's name: an HTTP token. */
  readonly name: string;
  /** The cookie's value. */
  readonly value: string;
  /** Seconds until it expires; 0 deletes it. */
  readonly maxAge?: number;
  /** When it expires. */
  readonly expires?: Date;
  /** The path it is sent for. */
  readonly path?: string;
  /** The domain it is sent to. */
  readonly domain?: string;
  /** Sent over HTTPS only. */
  readonly secure?: boolean;
  /** Hidden from scripts. */
  readonly httpOnly?: boolean;
  /** Cross-site sending. */
  readonly sameSite?: "Strict" | "Lax" | "None";
}

/**
 * The response settings of a {@linkcode reply}.
 *
 * @example
 * ```ts
 * import type { ReplyInit } from "@ramify/api/tree";
 *
 * const created: ReplyInit = { status: 201, headers: { location: "/books/7" } };
 * ```
 */
export interface ReplyInit {
  /** The success status, 200 to 299. Default: the leaf's `meta.http.status`, else 200. */
  readonly status?: number;
  /** Response headers (not `Content-Type`, `Content-Length` or `Set-Cookie`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Cookies to set. */
  readonly cookies?: readonly Cookie[];
}

/**
 * A value with its response settings; made by {@linkcode reply}.
 *
 * @example
 * ```ts
 * import { reply, Reply } from "@ramify/api/tree";
 *
 * const answer = reply(1, { status: 202 });
 * console.log(answer instanceof Reply, answer.status); // true 202
 * ```
 */
export class Reply<T> {
  /** The value callers receive. */
  readonly value: T;
  /** The success status, if chosen. */
  readonly status: number | undefined;
  /** Response headers, checked. */
  readonly headers: readonly (readonly [string, string])[];
  /** Cookies to set, checked. */
  readonly cookies: readonly Cookie[];

  /**
   * Checks the settings; prefer {@linkcode reply}.
   *
   * @param value what callers receive
   * @param init status, headers and cookies
   */
  constructor(value: T, init: ReplyInit = {}) {
    const { status } = init;
    if (status !== undefined && (!Number.isInteger(status) || status < 200 || status > 299)) {
      throw new RangeError(`reply(): status must be an integer from 200 to 299, got ${status}`);
    }
    if ((status === 204 || status === 205) && value !== undefined) {
      throw new TypeError(`reply(): a ${status} has no body; reply with undefined`);
    }
    this.value = value;
    this.status = status;
    this.headers = Object.entries(init.headers ?? {}).map(([name, text]) =>
      checkedHeader(name, text)
    );
    this.cookies = (init.cookies ?? []).map(checkedCookie);
    Object.freeze(this);
  }

  /** The same settings around another value (the output schema's parse of this one). */
  with<U>(value: U): Reply<U> {
    return new Reply(value, {
      ...(this.status === undefined ? {} : { status: this.status }),
      headers: Object.fromEntries(this.headers),
      cookies: this.cookies,
    });
  }
}

/**
 * A result with a chosen status, headers and cookies.
 *
 * @example
 * ```ts
 * import { op, reply } from "@ramify/api/tree";
 *
 * const login = op(() =>
 *   reply({ ok: true }, { cookies: [{ name: "sid", value: "s3cr3t", httpOnly: true }] })
 * );
 * ```
 *
 * @throws {RangeError} for a status outside 200 to 299.
 * @throws {TypeError} for a bad header or cookie, or a body on 204.
 */
export function reply<T>(value: T, init: ReplyInit = {}): Reply<T> {
  return new Reply(value, init);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether a name is an HTTP token (RFC 9110): what header and cookie names are. */
export function isToken(name: unknown): boolean {
  return typeof name === "string" && TOKEN.test(name);
}
const SET_BY_SERVER = new Set([
  "content-type",
  "content-length",
  "set-cookie",
  "transfer-encoding",
]);

function checkedHeader(name: string, value: string): readonly [string, string] {
  if (!isToken(name)) {
    throw new TypeError(`reply(): ${JSON.stringify(name)} is not a header name`);
  }
  if (SET_BY_SERVER.has(name.toLowerCase())) {
    throw new TypeError(
      `reply(): the ${name} header is set by the server; use cookies for Set-Cookie`,
    );
  }
  if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
    throw new TypeError(`reply(): the ${name} header's value must be one line of text`);
  }
  return [name.toLowerCase(), value];
}

function checkedCookie(cookie: Cookie): Cookie {
  if (!isToken(cookie.name)) {
    throw new TypeError(`reply(): ${JSON.stringify(cookie.name)} is not a cookie name`);
  }
  if (typeof cookie.value !== "string") {
    throw new TypeError(`reply(): cookie ${cookie.name} needs a string value`);
  }
  for (const key of ["path", "domain"] as const) {
    const part = cookie[key];
    if (part !== undefined && /[;\r\n\0]/.test(part)) {
      throw new TypeError(
        `reply(): cookie ${cookie.name}'s ${key} must not hold ";" or a line break`,
      );
    }
  }
  if (cookie.maxAge !== undefined && !Number.isInteger(cookie.maxAge)) {
    throw new TypeError(`reply(): cookie ${cookie.name}'s maxAge must be an integer`);
  }
  if (cookie.sameSite === "None" && cookie.secure !== true) {
    throw new TypeError(`reply(): cookie ${cookie.name} with sameSite "None" must be secure`);
  }
  return Object.freeze({ ...cookie });
}
