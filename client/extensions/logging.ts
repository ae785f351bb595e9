/**
 * The `logging` client extension: structured log lines for each request sent,
 * each response received and each failure, with credentials redacted from
 * headers, URL userinfo and query parameters.
 *
 * It comes last (innermost) in the documented order, so it logs exactly what
 * goes on the wire: every retry attempt, with the headers interceptors added:
 *
 * ```
 * extensions: [retry(), timeout(), interceptors(...), logging()]
 * ```
 *
 * @example
 * ```ts
 * import { logging } from "@ramify/api/http/extensions/logging";
 *
 * const extension = logging({ level: "debug", redact: ["x-session"] });
 * ```
 *
 * @module
 */

import type { ClientExtension } from "../extension.ts";

/**
 * Where log lines go: `console` fits, as do most structured loggers. Each call
 * gets a readable message and a details object.
 *
 * @example
 * ```ts
 * import type { Logger } from "@ramify/api/http/extensions/logging";
 *
 * const json = (level: string) => (message: string, details: Record<string, unknown>) =>
 *   console.log(JSON.stringify({ level, message, ...details }));
 * const logger: Logger = {
 *   debug: json("debug"),
 *   info: json("info"),
 *   warn: json("warn"),
 *   error: json("error"),
 * };
 * ```
 */
export interface Logger {
  /** Request starts. */
  debug(message: string, details: Record<string, unknown>): void;
  /** Successful responses. */
  info(message: string, details: Record<string, unknown>): void;
  /** 4xx and 5xx responses. */
  warn(message: string, details: Record<string, unknown>): void;
  /** Requests that got no response. */
  error(message: string, details: Record<string, unknown>): void;
}

/**
 * Options of {@linkcode logging}.
 *
 * @example
 * ```ts
 * import type { LoggingOptions } from "@ramify/api/http/extensions/logging";
 *
 * const options: LoggingOptions = { level: "warn", redact: ["x-session", "sig"] };
 * ```
 */
export interface LoggingOptions {
  /** The least severe level written (default `"info"`); `"silent"` writes nothing. */
  readonly level?: "debug" | "info" | "warn" | "error" | "silent";
  /** Where to write (default `console`). */
  readonly logger?: Logger;
  /**
   * More header and query parameter names whose values are replaced by
   * `"[redacted]"` (case-insensitive), on top of the built-in lists.
   */
  readonly redact?: readonly string[];
  /** A millisecond clock for durations (injectable for tests; default `performance.now`). */
  readonly now?: () => number;
}

const SEVERITY = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 } as const;

const REDACTED = "[redacted]";

const SECRET_HEADERS = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
];

const SECRET_PARAMS = ["token", "access_token", "api_key", "apikey", "password", "secret"];

/**
 * Logs each request, response and failure.
 *
 * - request start, at `debug`: `{ method, url, headers }`;
 * - response, at `info` (`warn` for 4xx and 5xx): `{ method, url, status,
 *   durationMs }`, plus the response `headers` when the level is `debug`;
 * - failure (sending rejected), at `error`: `{ method, url, durationMs, error }`,
 *   the error as thrown; the rejection then continues unchanged.
 *
 * Values of the headers `authorization`, `proxy-authorization`, `cookie`,
 * `set-cookie` and `x-api-key`, of the query parameters `token`,
 * `access_token`, `api_key`, `apikey`, `password` and `secret`, of any name in
 * `redact`, and the URL's userinfo, are logged as `"[redacted]"`. Only the log
 * lines are redacted; the request is sent untouched.
 *
 * @param options the level, logger and extra names to redact
 * @returns the extension
 *
 * @example Warnings and errors only, into a custom sink
 * ```ts
 * import { logging } from "@ramify/api/http/extensions/logging";
 *
 * const lines: string[] = [];
 * const write = (message: string) => void lines.push(message);
 * const extension = logging({
 *   level: "warn",
 *   logger: { debug: write, info: write, warn: write, error: write },
 * });
 * ```
 */
export function logging(options: LoggingOptions = {}): ClientExtension {
  const threshold = SEVERITY[options.level ?? "info"];
  const logger = options.logger ?? console;
  const now = options.now ?? (() => performance.now());
  const extra = (options.redact ?? []).map((name) => name.toLowerCase());
  const secretHeaders = new Set([...SECRET_HEADERS, ...extra]);
  const secretParams = new Set([...SECRET_PARAMS, ...extra]);
  const enabled = (level: keyof typeof SEVERITY) => SEVERITY[level] >= threshold;

  return {
    name: "logging",
    wrap: (next) => async (request) => {
      // Skip all the redaction work when nothing would be written.
      if (threshold === SEVERITY.silent) return next(request);
      const { method } = request;
      const url = redactUrl(request.url, secretParams);
      if (enabled("debug")) {
        const headers = redactHeaders(request.headers, secretHeaders);
        logger.debug(`${method} ${url}`, { method, url, headers });
      }
      const start = now();
      let response: Response;
      try {
        response = await next(request);
      } catch (error) {
        const durationMs = elapsed(start, now());
        logger.error(`${method} ${url} failed`, { method, url, durationMs, error });
        throw error;
      }
      const level = response.status >= 400 ? "warn" : "info";
      if (enabled(level)) {
        const { status } = response;
        const durationMs = elapsed(start, now());
        const details: Record<string, unknown> = { method, url, status, durationMs };
        if (enabled("debug")) details.headers = redactHeaders(response.headers, secretHeaders);
        logger[level](`${method} ${url} ${status} (${durationMs} ms)`, details);
      }
      return response;
    },
  };
}

function elapsed(start: number, end: number): number {
  return Math.round(end - start);
}

function redactHeaders(headers: Headers, secret: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  // Header names come out of `Headers` lowercased, as the set holds them.
  for (const [name, value] of headers) out[name] = secret.has(name) ? REDACTED : value;
  return out;
}

/**
 * The URL with its userinfo and secret query values replaced. The rest of the
 * query is kept as written (not re-encoded), and so is an unparsable URL
 * except for its query.
 */
function redactUrl(url: string, secret: ReadonlySet<string>): string {
  const parsed = URL.parse(url);
  let text = url;
  if (parsed !== null && (parsed.username !== "" || parsed.password !== "")) {
    parsed.username = "";
    parsed.password = "";
    text = parsed.href.replace("//", `//${REDACTED}@`);
  }
  const queryAt = text.indexOf("?");
  if (queryAt === -1) return text;
  const hashAt = text.indexOf("#", queryAt);
  const end = hashAt === -1 ? text.length : hashAt;
  const query = text.slice(queryAt + 1, end).split("&").map((pair) => {
    const equals = pair.indexOf("=");
    const name = equals === -1 ? pair : pair.slice(0, equals);
    return secret.has(decodeName(name).toLowerCase()) ? `${name}=${REDACTED}` : pair;
  });
  return `${text.slice(0, queryAt)}?${query.join("&")}${text.slice(end)}`;
}

/** A query parameter name as a server would read it (`+` is a space). */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    // A malformed escape: compare the name as written.
    return name;
  }
}
