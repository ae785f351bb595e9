/**
 * `Idempotency-Key` on the router (IETF draft-ietf-httpapi-idempotency-key-header):
 * for a leaf that takes one (`meta.http.idempotencyKey`), the first request
 * with a key claims it in the store, runs, and its answer is kept; a retry
 * with the key and the same request gets that answer again, from any instance
 * sharing the store, marked `Idempotent-Replayed: true`, and the handler does
 * not run.
 *
 * - `400` without a key where it is required, or with one that is not a
 *   string of 1 to 255 printable characters (the draft's quoted form
 *   `"..."`, or bare);
 * - `422` for the key again with another request (method, path, query,
 *   content type or body);
 * - `409` (with `Retry-After: 1`) for the key again while its first request
 *   still runs;
 * - `503` when the store cannot be reached: fail closed, nothing runs.
 *
 * A key is the principal's: the record is kept under the identity the
 * leaf's guards establish for the request (`principalOf`), so another
 * caller's key never replays this caller's answer, and a renewed token of
 * the same principal does.
 *
 * An answer is kept unless a retry may be answered otherwise: a fault or any
 * other 5xx, 401, 403, 408, 425, 429 and 499 (the caller went away) release
 * the key, so the next attempt runs again. Other errors (400, 404, 409, 422, a declared error) are kept
 * and replayed, as the draft asks ("success or an error").
 *
 * Internal: not a public subpath. Used by the router (`createRouter`), which
 * decides per route when it is built whether a request pays for any of this.
 *
 * @module
 */

import { HttpError } from "../../tree/http_error.ts";
import { errorResponse } from "../../web/respond.ts";
import type { BodyLimits } from "../../web/request.ts";
import { mediaType, readBodyBytes } from "../../web/body.ts";
import {
  type IdempotencyState,
  type IdempotencyStore,
  memoryIdempotency,
  type StoredAnswer,
} from "../../web/idempotency.ts";
import type { IdempotencyKeyMode } from "../../route/idempotency.ts";
import { sha256 } from "../../tree/digest.ts";

// The router's one import for the per-route decision and the run.
export { idempotencyKeyOf } from "../../route/idempotency.ts";

/**
 * The router's option for leaves that take an `Idempotency-Key`.
 *
 * @example
 * ```ts
 * import { type IdempotencyOptions, memoryIdempotency } from "@ramify/api/http";
 *
 * const opts: IdempotencyOptions = { idempotency: memoryIdempotency({ ttlMs: 60 * 60_000 }) };
 * ```
 */
export interface IdempotencyOptions {
  /**
   * Where the answers of leaves taking an `Idempotency-Key` are kept: share
   * one (`redisIdempotency`) between the instances of a service. Default: a
   * `memoryIdempotency()` of the router's own, made only when a leaf takes a key.
   */
  readonly idempotency?: IdempotencyStore;
}

/** A route as compiled: whether its leaf takes a key. */
interface Keyed {
  readonly keyed: IdempotencyKeyMode | undefined;
}

/** The router's answer of one request to a route, the request first. */
type Answer<C, A extends unknown[]> = (
  request: Request,
  compiled: C,
  ...rest: A
) => Promise<Response>;

/** The longest key taken, as the draft's examples and common practice bound it. */
const MAX_KEY = 255;
/** Answers a retry may get otherwise: never kept. */
const NOT_KEPT: ReadonlySet<number> = new Set([401, 403, 408, 425, 429, 499]);
/** Headers of one exchange, not of the answer: never replayed. */
const NOT_REPLAYED: ReadonlySet<string> = new Set([
  "connection",
  "content-length",
  "date",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
]);

/**
 * The router's `invoke` for routes whose leaf takes a key, with the router's
 * store (made on first use when none is given) and its body limits.
 */
export function keyedRun<C extends Keyed, A extends unknown[]>(
  opts: IdempotencyOptions,
  limits: BodyLimits,
  invoke: Answer<C, A>,
  ownerOf: (request: Request, compiled: C) => Promise<string | undefined>,
): Answer<C, A> {
  const guarded = guard(opts, limits);
  return (request, compiled, ...rest) =>
    guarded(
      compiled.keyed ?? "optional",
      request,
      (same) => invoke(same, compiled, ...rest),
      () => ownerOf(request, compiled),
    );
}

function guard(
  opts: IdempotencyOptions,
  limits: BodyLimits,
): (
  mode: IdempotencyKeyMode,
  request: Request,
  run: (request: Request) => Promise<Response>,
  ownerOf: () => Promise<string | undefined>,
) => Promise<Response> {
  let store = opts.idempotency;
  return async (mode, request, run, ownerOf) => {
    const header = request.headers.get("idempotency-key");
    if (header === null) {
      if (mode === "optional") return run(request);
      return refuse(request, 400, "MISSING", "This operation needs an Idempotency-Key header");
    }
    const sent = keyOf(header);
    if (sent === undefined) {
      return refuse(
        request,
        400,
        "INVALID",
        `Idempotency-Key must be one string of 1 to ${MAX_KEY} printable ASCII characters`,
      );
    }
    // The body is read from a copy: the original goes on to the leaf unread.
    const read = await readBodyBytes(request.clone(), limits.maxBytes, limits.timeoutMs);
    if (!read.ok) {
      const [status, code, detail] = UNREAD[read.reason];
      return refuse(request, status, code, detail);
    }
    const fingerprint = await fingerprintOf(request, read.bytes);
    // A caller the guards refuse is refused by the call as well, and that answer is never kept.
    const owner = await ownerOf().catch(() => undefined);
    const key = owner === undefined ? sent : `${await sha256(owner)}:${sent}`;
    const token = crypto.randomUUID();
    store ??= memoryIdempotency();
    let found: IdempotencyState;
    try {
      found = await store.claim(key, fingerprint, token);
    } catch {
      return refuse(request, 503, "UNAVAILABLE", "Idempotency records are out of reach", {
        "retry-after": "1",
      });
    }
    if (found.state !== "claimed") {
      if (found.fingerprint !== fingerprint) {
        return refuse(request, 422, "REUSED", "This Idempotency-Key was sent with another request");
      }
      if (found.state === "running") {
        return refuse(request, 409, "IN_USE", "A request with this Idempotency-Key is running", {
          "retry-after": "1",
        });
      }
      await request.body?.cancel().catch(() => {});
      return replay(found.answer);
    }
    const held = store;
    const forget = () => held.release(key, token).catch(() => {});
    let answer: StoredAnswer;
    let headers: Headers;
    try {
      const response = await run(request);
      if (response.status >= 500 || NOT_KEPT.has(response.status)) {
        await forget();
        return response;
      }
      answer = await keptOf(response);
      headers = response.headers;
    } catch (error) {
      await forget();
      throw error;
    }
    // Not kept (the store went away meanwhile): the key stays held until
    // `lockMs`, and the client has its answer all the same.
    await held.complete(key, token, answer).catch(() => {});
    // The first answer keeps every header of its own (a cookie it sets, say).
    return new Response(
      NO_BODY.has(answer.status) ? null : answer.body as Uint8Array<ArrayBuffer>,
      {
        status: answer.status,
        headers,
      },
    );
  };
}

/** A problem of the idempotency check, with its code; the unread body is let go. */
async function refuse(
  request: Request,
  status: number,
  code: string,
  detail: string,
  headers?: Record<string, string>,
): Promise<Response> {
  await request.body?.cancel().catch(() => {});
  return errorResponse(
    new HttpError(status, detail, { code: `IDEMPOTENCY_KEY_${code}`, headers }),
  );
}

const UNREAD = {
  "too-large": [413, "TOO_LARGE", "The body is larger than the server accepts"],
  "too-slow": [408, "TOO_SLOW", "The body did not arrive in time"],
  unreadable: [400, "UNREADABLE", "The body could not be read"],
} as const;

/**
 * The key of an `Idempotency-Key` value: an sf-string (RFC 8941, `"..."` with
 * `\"` and `\\` escapes) as the draft writes it, or the bare characters many
 * clients send; printable ASCII only. `undefined` for anything else, two
 * values joined by a comma included.
 */
function keyOf(header: string): string | undefined {
  const value = header.trim();
  let key = "";
  if (value.startsWith('"')) {
    for (let i = 1; i < value.length; i++) {
      const char = value[i];
      if (char === '"') return i === value.length - 1 && valid(key) ? key : undefined;
      if (char === "\\") {
        const next = value[++i];
        if (next !== '"' && next !== "\\") return undefined;
        key += next;
      } else key += char;
    }
    return undefined;
  }
  return /^[\x21-\x7e]+$/.test(value) && !/[",]/.test(value) && valid(value) ? value : undefined;
}

function valid(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY && /^[\x20-\x7e]+$/.test(key);
}

/**
 * What tells two requests with one key apart: the method, path and query, the
 * media type and the body's bytes. A multipart boundary is left out, since a
 * client draws a new one for every attempt.
 */
async function fingerprintOf(request: Request, body: Uint8Array): Promise<string> {
  // A base for a relative URL: Bun gives one to a request without `Host`.
  const url = new URL(request.url, "http://localhost");
  const type = request.headers.get("content-type");
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(type ?? "")?.[1];
  const head = `${request.method} ${url.pathname}${url.search}\n${mediaType(type)}\n`;
  let bytes = body;
  if (boundary !== undefined) {
    // Latin-1 maps bytes to characters one to one: the boundary goes, the rest stays.
    const text = new TextDecoder("latin1").decode(body).split(boundary).join("");
    bytes = new TextEncoder().encode(text);
  }
  const whole = new Uint8Array(head.length * 3 + bytes.length);
  const { written } = new TextEncoder().encodeInto(head, whole);
  whole.set(bytes, written);
  return await sha256(whole.subarray(0, written + bytes.length));
}

/** The answer as kept: its status, its headers but those of the exchange, its bytes. */
async function keptOf(response: Response): Promise<StoredAnswer> {
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (!NOT_REPLAYED.has(name)) headers.push([name, value]);
  }
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body };
}

/** A kept answer again, marked as such (not the draft's: Stripe's header, which clients know). */
function replay(answer: StoredAnswer): Response {
  const headers = new Headers(answer.headers as [string, string][]);
  headers.set("idempotent-replayed", "true");
  return new Response(NO_BODY.has(answer.status) ? null : answer.body as Uint8Array<ArrayBuffer>, {
    status: answer.status,
    headers,
  });
}

const NO_BODY: ReadonlySet<number> = new Set([204, 205, 304]);
