// A leaf that returns nothing, on every verb, over a real Deno.serve: the one
// success status its OpenAPI document lists is the status it answers, with no body.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { withServer } from "../../support/server.ts";

const VERBS = ["get", "post", "put", "patch", "delete"] as const;

/** Per verb: a void output schema (204), with a declared status (202), and `http.status: 204`. */
const CASES = {
  void: { meta: { output: z.void() }, status: 204 },
  accepted: { meta: { output: z.void(), http: { status: 202 } }, status: 202 },
  noContent: { meta: { http: { status: 204 } }, status: 204 },
} as const;

const tree = api(Object.fromEntries(VERBS.map((verb) => [
  verb,
  api(Object.fromEntries(
    Object.entries(CASES).map(([name, { meta }]) => [name, op(() => undefined, http[verb], meta)]),
  )),
])));

type Responses = Record<string, { content?: unknown; headers?: unknown }>;

Deno.test("a leaf returning nothing answers, on every verb, the one success status its document lists", async () => {
  await withServer(createFetch(tree), async (base) => {
    const document = await (await fetch(`${base}/openapi.json`)).json();
    for (const verb of VERBS) {
      for (const [name, { status }] of Object.entries(CASES)) {
        const where = `${verb.toUpperCase()} /${verb}/${name}`;
        const responses: Responses = document.paths[`/${verb}/${name}`][verb].responses;
        const successes = Object.keys(responses).filter((code) => code.startsWith("2"));
        assert.deepEqual(successes, [String(status)], `${where}: one documented success`);
        assert.equal(responses[status].content, undefined, `${where}: documented without a body`);
        const response = await fetch(`${base}/${verb}/${name}`, { method: verb.toUpperCase() });
        assert.equal(response.status, status, `${where}: answers what is documented`);
        assert.equal(await response.text(), "", `${where}: no body`);
      }
    }
  });
});

Deno.test("a leaf declaring 204 with an output schema that holds a value fails when the server is built", () => {
  const leaf = op(() => ({ id: "1" }), http.post, {
    output: z.object({ id: z.string() }),
    http: { status: 204 },
  });
  assert.throws(
    () => createFetch(api({ made: leaf })),
    /POST \/made: meta\.http\.status 204 sends no content, but the output schema holds a value/,
  );
});
