// GraphQL has no bytes: an output schema declaring them (z.file()) is refused
// when the schema is built, naming the leaf and meta.graphql: false, which
// keeps a leaf out; a handler answering with bytes (or a Response) at run
// time is a clear field error, its siblings intact; a z.file() input keeps its name and media
// type through a multipart request.
import assert from "node:assert/strict";
import { z } from "zod";
import { GraphQLError } from "graphql";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLServer,
  createHttpGraphQLServer,
  projectGraphQL,
  toSDL,
} from "@ramify/api/graphql";

const PNG = new Uint8Array([137, 80, 78, 71]);
const readOnly = { tags: { readOnly: true } } as const;

Deno.test("graphql bytes: a declared binary result is refused, naming the leaf and the way out", () => {
  const tree = api({
    covers: api({ read: op(() => new File([PNG], "c.png"), { output: z.file(), ...readOnly }) }),
  });
  assert.throws(
    () => projectGraphQL(tree),
    (error: Error) => {
      assert.match(error.message, /the output schema of covers\/read holds a file/);
      assert.match(error.message, /GraphQL has no bytes/);
      assert.match(error.message, /meta\.graphql: false/);
      return true;
    },
  );
});

Deno.test("graphql bytes: meta.graphql: false keeps a leaf out of GraphQL", () => {
  const tree = api({
    ping: op(() => "pong", readOnly),
    cover: op(() => new File([PNG], "c.png"), { output: z.file(), graphql: false, ...readOnly }),
  });
  const projection = projectGraphQL(tree);
  assert.deepEqual(projection.fields.map((field) => field.name), ["ping"]);
  assert.doesNotMatch(toSDL(tree), /cover/);
});

Deno.test("graphql bytes: bytes at run time are a clear field error, siblings intact", async () => {
  const faults: unknown[] = [];
  let cancelled = false;
  const tree = api({
    ping: op(() => "pong", readOnly),
    blob: op(() => new Blob([PNG], { type: "image/png" }), readOnly),
    later: op(() => Promise.resolve(PNG), readOnly),
    response: op(() => new Response("words"), readOnly),
    stream: op(() =>
      new ReadableStream<Uint8Array>({
        cancel() {
          cancelled = true;
        },
      }), readOnly),
  });
  const server = createGraphQLServer(tree, { onError: (error) => faults.push(error) });
  const result = await server.execute({ query: "{ ping blob later response stream }" });
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    ping: "pong",
    blob: null,
    later: null,
    response: null,
    stream: null,
  });
  const said = (label: string, type: string) =>
    `${label} answered with bytes (${type}), which GraphQL cannot carry; serve it over HTTP and keep it out of GraphQL with meta.graphql: false`;
  // A field answered at once errs before one that waited: order by field.
  const errors = [...result.errors ?? []].sort((a, b) =>
    String(a.path).localeCompare(String(b.path))
  );
  assert.deepEqual(errors.map((error) => [error.path, error.message, error.extensions.code]), [
    [["blob"], said("blob", "image/png"), "INTERNAL_SERVER_ERROR"],
    [["later"], said("later", "application/octet-stream"), "INTERNAL_SERVER_ERROR"],
    [
      ["response"],
      "response answered with a Response (text/plain;charset=UTF-8), which GraphQL cannot carry; return the value itself, or keep it out of GraphQL with meta.graphql: false",
      "INTERNAL_SERVER_ERROR",
    ],
    [["stream"], said("stream", "application/octet-stream"), "INTERNAL_SERVER_ERROR"],
  ]);
  assert.equal(faults.length, 4);
  assert.equal(cancelled, true);
});

Deno.test("graphql bytes: an item of bytes in a subscription ends it with the same clear error", async () => {
  const faults: unknown[] = [];
  let closed = false;
  const tree = api({
    frames: op(async function* () {
      try {
        yield { n: 1 };
        yield new Blob([PNG], { type: "image/png" });
        yield { n: 3 };
      } finally {
        closed = true;
      }
    }, { tags: { readOnly: true, streaming: true } }),
  });
  const server = createGraphQLServer(tree, { onError: (error) => faults.push(error) });
  const stream = await server.subscribe({ query: "subscription { frames }" });
  assert.ok(Symbol.asyncIterator in stream, "a stream");
  const results: unknown[] = [];
  // A stream's failure ends it: the transports send it as the operation's error.
  const ended = await (async () => {
    try {
      for await (const result of stream as AsyncIterable<unknown>) results.push(result);
    } catch (error) {
      return error as GraphQLError;
    }
  })();
  assert.deepEqual(JSON.parse(JSON.stringify(results)), [{ data: { frames: { n: 1 } } }]);
  assert.ok(ended instanceof GraphQLError);
  assert.equal(ended.extensions.code, "INTERNAL_SERVER_ERROR");
  assert.match(ended.message, /frames answered with bytes \(image\/png\)/);
  assert.equal(closed, true, "the source was closed");
  assert.equal(faults.length, 1);
});

Deno.test("graphql bytes: a z.file() input keeps its name and media type through multipart", async () => {
  const tree = api({
    describe: op(({ file }) => ({ name: file.name, type: file.type, size: file.size }), {
      input: z.object({ file: z.file() }),
    }),
  });
  const form = new FormData();
  form.set(
    "operations",
    JSON.stringify({
      query: "mutation($file: File!) { describe(file: $file) }",
      variables: { file: null },
    }),
  );
  form.set("map", JSON.stringify({ 0: ["variables.file"] }));
  form.set("0", new File([PNG], "cover.png", { type: "image/png" }));
  const response = await createHttpGraphQLServer(tree)(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "graphql-require-preflight": "1" },
      body: form,
    }),
  );
  assert.deepEqual(await response.json(), {
    data: { describe: { name: "cover.png", type: "image/png", size: PNG.length } },
  });
});
