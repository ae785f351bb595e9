// Shared by the createFetch integration tests: the three routers, readers of
// problems, JSON and headers, and a free-form input schema.
import assert from "node:assert/strict";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { compiledCharRouter, radixRouter, toRouter } from "@ramify/api/http";

export const ROUTERS = [toRouter, radixRouter, compiledCharRouter] as const;

/** Asserts an RFC 9457 problem response with `status`, and returns its body. */
export async function problemOf(
  response: Response,
  status: number,
): Promise<Record<string, unknown>> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  const body = await response.json();
  assert.equal(body.type, "about:blank");
  assert.equal(typeof body.title, "string");
  assert.equal(body.status, status);
  for (const key of Object.keys(body)) {
    assert.ok(["type", "title", "status", "detail", "issues"].includes(key), `unexpected ${key}`);
  }
  return body;
}

/** Asserts a 200 JSON response and returns its value. */
export async function jsonOf(response: Response): Promise<unknown> {
  assert.equal(response.status, 200, `status ${response.status}`);
  assert.equal(response.headers.get("content-type"), "application/json");
  return await response.json();
}

export function postJson(url: string, value: unknown, method = "POST"): Promise<Response> {
  return fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(value),
  });
}

/** The set of verbs in an `Allow` header. */
export function allowOf(response: Response): Set<string> {
  return new Set((response.headers.get("allow") ?? "").split(",").map((v) => v.trim()));
}

/** A response's headers without the ones the server adds per message. */
export function stableHeaders(response: Response): [string, string][] {
  return [...response.headers].filter(([name]) => name !== "date");
}

/**
 * A free-form input schema that takes the input as the router built it. A
 * leaf without an input schema takes its captures alone; these tests look at
 * the router's own input object, which `z.looseObject({})` would copy (and
 * drop a `__proto__` key from).
 */
export const asSent: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};
