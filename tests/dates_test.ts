// Dates on every surface: a date-time string on the wire and in the documents,
// a `Date` in the handler (zod's z.date() in and out), the DateTime scalar in
// GraphQL; a schema that truly has no JSON form fails when the server is built,
// naming the leaf, never as a 500 at request time.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createCall } from "@ramify/api/tree/catalogue";
import { createFetch, toOpenApi } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createGraphQLServer, createHttpGraphQLServer, toSDL } from "@ramify/api/graphql";
import { withServer } from "./support/server.ts";

const Event = z.object({ title: z.string(), at: z.date(), tags: z.array(z.string()) });
const seen: unknown[] = [];
const tree = api({
  events: api({
    add: op(({ title, at, window }) => {
      seen.push(at, window?.from);
      return { title, at, tags: [], secret: "x" };
    }, {
      input: z.object({
        title: z.string(),
        at: z.date(),
        window: z.object({ from: z.date().optional() }).optional(),
      }),
      output: Event,
    }),
    next: op(
      () => ({ title: "Launch", at: new Date("2030-01-01T00:00:00Z"), tags: [] }),
      http.get,
      {
        output: Event,
      },
    ),
  }),
});

Deno.test("dates: a date-time string in, a Date in the handler, a date-time string out (HTTP)", async () => {
  seen.length = 0;
  await withServer(createFetch(tree), async (base) => {
    const added = await fetch(`${base}/events/add`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: "Talk",
        at: "2026-05-01T12:30:00.000Z",
        window: { from: "2026-05-01T00:00:00.000Z" },
      }),
    });
    assert.equal(added.status, 200);
    assert.deepEqual(await added.json(), {
      title: "Talk",
      at: "2026-05-01T12:30:00.000Z",
      tags: [],
    });
    assert.ok(seen[0] instanceof Date && seen[1] instanceof Date);
    const bad = await fetch(`${base}/events/add`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Talk", at: "not a date" }),
    });
    assert.equal(bad.status, 422);
    await bad.body?.cancel();
    const document = await fetch(`${base}/openapi.json`);
    assert.equal(document.status, 200);
    const text = await document.text();
    assert.match(text, /"at":\{"type":"string","format":"date-time"\}/);
  });
});

Deno.test("dates: the OpenAPI document and the SDL describe them; GraphQL takes and gives DateTime", async () => {
  const doc = await toOpenApi(tree);
  assert.ok(JSON.stringify(doc).includes('"format":"date-time"'));
  const sdl = toSDL(tree);
  assert.match(sdl, /scalar DateTime/);
  assert.match(sdl, /at: DateTime!/);
  seen.length = 0;
  const server = createGraphQLServer(tree);
  const result = await server.execute({
    query: 'mutation { eventsAdd(title: "Talk", at: "2026-05-01T12:30:00Z") { title at } }',
  });
  assert.equal(result.errors, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    eventsAdd: { title: "Talk", at: "2026-05-01T12:30:00.000Z" },
  });
  assert.ok(seen[0] instanceof Date);
  const next = await server.execute({ query: "{ events { next { at } } }" });
  assert.deepEqual(JSON.parse(JSON.stringify(next.data)), {
    events: { next: { at: "2030-01-01T00:00:00.000Z" } },
  });
  // The scalar itself refuses a non-date (in a variable and as a literal), before any resolver runs.
  const badVariable = await server.execute({
    query: 'mutation($at: DateTime!) { eventsAdd(title: "T", at: $at) { title } }',
    variables: { at: "2026-02-30T00:00:00Z" },
  });
  assert.match(String(badVariable.errors?.[0].message), /DateTime cannot represent/);
  const badLiteral = await server.execute({
    query: 'mutation { eventsAdd(title: "T", at: "soon") { title } }',
  });
  assert.match(String(badLiteral.errors?.[0].message), /DateTime cannot represent the literal/);
});

Deno.test("dates: the call path revives date-time strings for the schema", async () => {
  const add = tree.children.events.children.add;
  const result = await createCall(add)({ title: "T", at: "2026-01-02T03:04:05.000Z" }, {});
  assert.deepEqual(result, { title: "T", at: new Date("2026-01-02T03:04:05.000Z"), tags: [] });
});

Deno.test("dates: a schema with no JSON form fails when the server is built, naming the leaf", () => {
  const odd = api({
    stats: api({
      counts: op(() => new Map([["a", 1]]), http.get, { output: z.map(z.string(), z.number()) }),
    }),
  });
  assert.throws(
    () => createFetch(odd),
    /^TypeError: createFetch: the output schema of stats\/counts \(GET \/stats\/counts\) has no JSON Schema form/,
  );
  assert.doesNotThrow(() => createFetch(odd, { openapi: false }));
  assert.throws(() => toSDL(odd), /the output schema of stats\/counts has no JSON Schema form/);
  assert.throws(() => createHttpGraphQLServer(odd), /stats\/counts/);
});

Deno.test("dates: the HTTP and GraphQL clients revive the dates an output schema promises", async () => {
  const { createClient } = await import("@ramify/api/http");
  const { createGraphQLClient } = await import("@ramify/api/graphql");
  const { httpTransport } = await import("@ramify/api/graphql/client");
  const rest = createFetch(tree);
  const graphql = createHttpGraphQLServer(tree);
  await withServer(
    (request) => new URL(request.url).pathname === "/graphql" ? graphql(request) : rest(request),
    async (base) => {
      const clients = [
        createClient(tree, { baseUrl: base }),
        createGraphQLClient(tree, { transport: httpTransport({ url: `${base}/graphql` }) }),
      ];
      for (const client of clients) {
        const next = await client.events.next();
        assert.ok(next.at instanceof Date);
        assert.equal(next.at.toISOString(), "2030-01-01T00:00:00.000Z");
        const added = await client.events.add({ title: "T", at: new Date("2026-01-01T00:00:00Z") });
        assert.deepEqual(added, { title: "T", at: new Date("2026-01-01T00:00:00Z"), tags: [] });
      }
    },
  );
});

Deno.test("dates: a zod codec to Date is revived by both clients", async () => {
  const { createClient } = await import("@ramify/api/http");
  const { createGraphQLClient } = await import("@ramify/api/graphql");
  const { httpTransport } = await import("@ramify/api/graphql/client");
  const isoDate = z.codec(z.iso.datetime(), z.date(), {
    decode: (text) => new Date(text),
    encode: (date) => date.toISOString(),
  });
  const coded = api({
    stamp: op(() => ({ at: "2031-02-03T04:05:06.000Z" }), http.get, {
      output: z.object({ at: isoDate }),
    }),
  });
  const rest = createFetch(coded);
  const graphql = createHttpGraphQLServer(coded);
  await withServer(
    (request) => new URL(request.url).pathname === "/graphql" ? graphql(request) : rest(request),
    async (base) => {
      const clients = [
        createClient(coded, { baseUrl: base }),
        createGraphQLClient(coded, { transport: httpTransport({ url: `${base}/graphql` }) }),
      ];
      for (const client of clients) {
        const stamp = await client.stamp();
        const at: Date = stamp.at;
        assert.equal(at.toISOString(), "2031-02-03T04:05:06.000Z");
      }
    },
  );
});

Deno.test("dates: an output schema that makes a non-JSON value is typed as what arrives", async () => {
  const { createClient } = await import("@ramify/api/http");
  const sets = api({
    tags: op(() => ["b", "a", "b"], http.get, {
      output: z.array(z.string()).transform((items) => new Set(items)),
    }),
  });
  // A transform has no JSON Schema form: only a server without a document serves it.
  await withServer(createFetch(sets, { openapi: false }), async (base) => {
    const tags = await createClient(sets, { baseUrl: base }).tags();
    // A Set has no JSON form: it arrives as an empty object, and the type says so.
    const arrived: Record<string, never> = tags;
    // @ts-expect-error the client does not claim the Set the schema made on the server
    const claimed: Set<string> = tags;
    assert.equal(claimed instanceof Set, false);
    assert.deepEqual(arrived, {});
  });
});
