// Helpers of the hostile-input tests: a tree with handlers that crash in awkward
// ways, readers of problems, and checks that no prototype was touched and no
// internal message leaked.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { asSent } from "./fetch_support.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import {
  compiledCharRouter,
  createFetch,
  type CreateFetchOptions,
  radixRouter,
  toRouter,
} from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";

export const ROUTERS = [toRouter, radixRouter, compiledCharRouter] as const;
export const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** Words that only an internal error or a stack trace would put in a body. */
export const LEAKS = [
  /secret/i,
  /\bat .*:\d+:\d+/,
  /\.ts\b/,
  /TypeError|RangeError|SyntaxError/,
  /BigInt/i,
];

/** Nothing reached Object.prototype. */
export function assertPrototypeClean(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_KEYS);
}

/** Asserts a problem+json answer with `status` that leaks nothing; returns its body. */
export async function problemOf(
  response: Response,
  status: number,
  context = "",
): Promise<Record<string, unknown>> {
  const text = await response.text();
  assert.equal(response.status, status, `${context}: ${text.slice(0, 300)}`);
  assert.equal(response.headers.get("content-type"), "application/problem+json", context);
  for (const leak of LEAKS) assert.doesNotMatch(text, leak, context);
  const body = JSON.parse(text);
  assert.equal(body.type, "about:blank", context);
  assert.equal(body.status, status, context);
  assert.equal(typeof body.title, "string", context);
  if (status >= 500) assert.equal(body.detail, undefined, context);
  return body;
}

/** Asserts a 200 JSON answer; returns its value. */
export async function jsonOf(response: Response, context = ""): Promise<unknown> {
  const text = await response.text();
  assert.equal(response.status, 200, `${context}: ${text.slice(0, 300)}`);
  assert.equal(response.headers.get("content-type"), "application/json", context);
  return JSON.parse(text);
}

export function send(url: string, body: BodyInit, contentType?: string, method = "POST") {
  return fetch(url, {
    method,
    body,
    headers: contentType === undefined ? {} : { "content-type": contentType },
  });
}

/** A body streamed in these parts: sent chunked, with no Content-Length. */
export function streamOf(parts: readonly (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return ReadableStream.from(parts.map((p) => typeof p === "string" ? encoder.encode(p) : p));
}

/** What a handler can observe about its input object. */
export interface Facts {
  keys: string[];
  symbols: number;
  accessors: string[];
  prototypeIsObject: boolean;
  prototypesClean: boolean;
  polluted: unknown;
  proto: unknown;
}

export function factsOf(input: Record<string, unknown>): Facts {
  const names = Object.getOwnPropertyNames(input);
  return {
    keys: names,
    symbols: Object.getOwnPropertySymbols(input).length,
    accessors: names.filter((name) => !("value" in Object.getOwnPropertyDescriptor(input, name)!)),
    prototypeIsObject: Object.getPrototypeOf(input) === Object.prototype,
    prototypesClean: prototypesClean(input),
    polluted: input.polluted ?? null,
    proto: Object.hasOwn(input, "__proto__") ? input["__proto__"] : null,
  };
}

/** Every object reachable from `value` is a plain object or array with the standard prototype. */
export function prototypesClean(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || current instanceof File) continue;
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== Array.prototype) return false;
    stack.push(...Object.values(current));
  }
  return true;
}

/** A thrown value for every kind a handler might throw. */
export const THROWN: Record<string, () => unknown> = {
  string: () => "secret string",
  number: () => 42,
  null: () => null,
  undefined: () => undefined,
  object: () => ({ secret: "object" }),
  symbol: () => Symbol("secret"),
  array: () => ["secret"],
};

export function hostileTree() {
  const throwers: Record<string, ReturnType<typeof op>> = {};
  for (const [name, make] of Object.entries(THROWN)) {
    throwers[name] = op((): unknown => {
      throw make();
    }, http.get);
  }
  return api({
    // Free-form inputs taken as the router built them: what these tests check.
    echo: op(factsOf, { input: asSent }),
    look: op(factsOf, http.get, { input: asSent }),
    typed: op(factsOf, { input: z.looseObject({ name: z.string().optional() }) }),
    shaped: op((input) => ({ ...factsOf(input), filter: factsOf(input.filter ?? {}) }), http.get, {
      input: z.object({ filter: z.looseObject({}).optional() }),
    }),
    items: api({}, {
      fallback: { name: "id", subtree: api({ show: op(factsOf, http.get, { input: asSent }) }) },
    }),
    results: api({
      bigint: op(() => ({ secret: 1n }), http.get),
      cyclic: op(() => {
        const value: Record<string, unknown> = { secret: "cyclic" };
        value.self = value;
        return value;
      }, http.get),
      fn: op(() => () => "secret function", http.get),
      symbol: op(() => Symbol("secret"), http.get),
      badJson: op(() => ({
        toJSON() {
          throw new Error("secret toJSON");
        },
      }), http.get),
    }),
    throws: api(throwers),
    rejects: op(() => Promise.reject("secret rejection"), http.get),
    stream: api({
      crash: op(async function* () {
        yield 1;
        throw new Error("secret stream failure");
      }, { tags: { readOnly: true, streaming: true } }),
      chosen: op(async function* () {
        yield 1;
        throw new HttpError(409, "Changed under you");
      }, { tags: { readOnly: true, streaming: true } }),
      unencodable: op(async function* () {
        yield 1;
        yield 2n;
      }, { tags: { readOnly: true, streaming: true } }),
      thrower: op((): AsyncIterable<unknown> => {
        throw new Error("secret before the stream");
      }, { tags: { readOnly: true, streaming: true } }),
    }),
  });
}

export function hostileServer(
  run: (base: string, errors: unknown[]) => Promise<void>,
  opts: CreateFetchOptions = {},
): Promise<void> {
  const errors: unknown[] = [];
  const handler = createFetch(hostileTree(), {
    onError: (error) => errors.push(error),
    ...opts,
  });
  return withServer(handler, (base) => run(base, errors));
}
