// File uploads over GraphQL: z.file() is the File scalar, a multipart request
// (the GraphQL multipart request spec) puts files into variables, the clients
// send it, and every malformed or hostile multipart request is a clear 400.
import assert from "node:assert/strict";
import { createClient as createWsClient } from "graphql-ws";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
  toSDL,
} from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { withServer } from "../../support/server.ts";

const tree = api({
  upload: op(async ({ file, note }) => ({ name: file.name, text: await file.text(), note }), {
    input: z.object({ file: z.file(), note: z.string().optional() }),
  }),
  uploadMany: op(async ({ files }) => await Promise.all(files.map((file) => file.text())), {
    input: z.object({ files: z.array(z.file()).min(1) }),
  }),
});

const UPLOAD = "mutation($file: File!) { upload(file: $file) }";

function multipart(
  operations: unknown,
  map: unknown,
  files: Record<string, Blob | string>,
  headers: Record<string, string> = { "graphql-require-preflight": "1" },
): Request {
  const form = new FormData();
  form.set("operations", typeof operations === "string" ? operations : JSON.stringify(operations));
  form.set("map", typeof map === "string" ? map : JSON.stringify(map));
  for (const [name, file] of Object.entries(files)) form.set(name, file);
  return new Request("http://localhost/graphql", { method: "POST", headers, body: form });
}

async function answer(request: Request, opts = {}) {
  const response = await createHttpGraphQLServer(tree, { onError: () => {}, ...opts })(request);
  return { status: response.status, body: await response.json() };
}

Deno.test("files: z.file() is the input-only File scalar in the SDL", () => {
  const sdl = toSDL(tree);
  assert.match(sdl, /upload\(file: File!, note: String\): JSON/);
  assert.match(sdl, /uploadMany\(files: \[File!\]!\): JSON/);
  assert.match(
    sdl,
    /scalar File @specifiedBy\(url: "https:\/\/github.com\/jaydenseric\/graphql-multipart-request-spec"\)/,
  );
});

Deno.test("files: a multipart request puts its files where the map says", async () => {
  const file = new File(["hello"], "a.txt", { type: "text/plain" });
  const one = await answer(
    multipart({ query: UPLOAD, variables: { file: null } }, { 0: ["variables.file"] }, { 0: file }),
  );
  assert.deepEqual(one, {
    status: 200,
    body: { data: { upload: { name: "a.txt", text: "hello" } } },
  });
  const many = await answer(multipart(
    {
      query: "mutation($files: [File!]!) { uploadMany(files: $files) }",
      variables: { files: [null, null, null] },
    },
    { a: ["variables.files.0", "variables.files.2"], b: ["variables.files.1"] },
    { a: new File(["x"], "x"), b: new File(["y"], "y") },
  ));
  assert.deepEqual(many.body, { data: { uploadMany: ["x", "y", "x"] } });
});

Deno.test("files: the GraphQL client and the generated client send multipart over HTTP; WebSocket refuses files", async () => {
  const graphql = createHttpGraphQLServer(tree);
  const ws = createWsHandler(createGraphQLServer(tree));
  const dir = await Deno.makeTempDir({ prefix: "ramify-files-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    const generated = await import(`file://${dir}/client.ts`);
    await withServer(
      (request) => request.headers.get("upgrade") === "websocket" ? ws(request) : graphql(request),
      async (base) => {
        const url = `${base}/graphql`;
        const clients = [
          createGraphQLClient(tree, { transport: httpTransport({ url }) }),
          generated.createClient(generated.httpTransport(url)),
        ];
        const file = new File(["data"], "d.bin");
        for (const client of clients) {
          assert.deepEqual(await client.upload({ file, note: "n" }), {
            name: "d.bin",
            text: "data",
            note: "n",
          });
          assert.deepEqual(await client.uploadMany({ files: [file, new Blob(["b"]), file] }), [
            "data",
            "b",
            "data",
          ]);
        }
        const socket = createWsClient({
          url: url.replace("http", "ws"),
          webSocketImpl: WebSocket,
          retryAttempts: 0,
        });
        try {
          const overWs = createGraphQLClient(tree, { transport: wsTransport(socket) });
          await assert.rejects(overWs.upload({ file }), /wsTransport cannot send files/);
        } finally {
          await socket.dispose();
        }
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("files: a file that is not one is a GraphQL error, never a crash", async () => {
  // JSON turns a File into {}: the scalar refuses it.
  const asJson = await answer(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: UPLOAD, variables: { file: {} } }),
    }),
  );
  assert.equal(asJson.status, 200);
  assert.match(asJson.body.errors[0].message, /File cannot represent \{\}/);
  const literal = await answer(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: 'mutation { upload(file: "a.txt") }' }),
    }),
  );
  assert.equal(literal.status, 200);
  assert.match(literal.body.errors[0].message, /File cannot be written in the document/);
  // The file scalar is input only; the schema never makes it an output.
  assert.throws(
    () => toSDL(api({ back: op(() => new File([], "x"), { output: z.file() }) })),
    /back/,
  );
});

Deno.test("files: malformed and hostile multipart requests are 400s that say why", async () => {
  const file = new File(["x"], "x");
  const good = { query: UPLOAD, variables: { file: null } };
  const cases: [string, Request, RegExp][] = [
    [
      "no preflight header",
      multipart(good, { 0: ["variables.file"] }, { 0: file }, {}),
      /GraphQL-Require-Preflight/,
    ],
    [
      "no operations",
      multipart("", { 0: ["variables.file"] }, { 0: file }),
      /operations part is not valid JSON/,
    ],
    ["operations not JSON", multipart("{", {}, {}), /operations part is not valid JSON/],
    [
      "batched",
      multipart([good, good], { 0: ["0.variables.file"] }, { 0: file }),
      /Batched operations/,
    ],
    ["map not an object", multipart(good, ["variables.file"], { 0: file }), /map part must be/],
    [
      "map names a missing part",
      multipart(good, { 1: ["variables.file"] }, { 0: file }),
      /"1", which is not a file/,
    ],
    [
      "map names a text part",
      multipart(good, { 0: ["variables.file"] }, { 0: "text" }),
      /which is not a file/,
    ],
    ["map without paths", multipart(good, { 0: [] }, { 0: file }), /a list of paths/],
    [
      "path outside variables",
      multipart(good, { 0: ["query"] }, { 0: file }),
      /does not name a null variable/,
    ],
    [
      "path to a missing variable",
      multipart(good, { 0: ["variables.other"] }, { 0: file }),
      /does not name a null variable/,
    ],
    [
      "path to a non-null value",
      multipart({ query: UPLOAD, variables: { file: "x" } }, { 0: ["variables.file"] }, {
        0: file,
      }),
      /does not name a null variable/,
    ],
    [
      "path through the prototype",
      multipart(good, { 0: ["variables.__proto__.polluted"] }, { 0: file }),
      /does not name a null variable/,
    ],
    [
      "path to constructor",
      multipart(good, { 0: ["variables.constructor"] }, { 0: file }),
      /does not name a null variable/,
    ],
    [
      "index out of range",
      multipart({ query: UPLOAD, variables: { file: [null] } }, { 0: ["variables.file.1"] }, {
        0: file,
      }),
      /does not name a null variable/,
    ],
    [
      "not a multipart body",
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: {
          "content-type": "multipart/form-data; boundary=x",
          "graphql-require-preflight": "1",
        },
        body: "garbage",
      }),
      /could not be parsed/,
    ],
  ];
  for (const [name, request, message] of cases) {
    const { status, body } = await answer(request);
    assert.equal(status, 400, name);
    assert.match(body.errors[0].message, message, name);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("files: a multipart body over the size limit is a 413", async () => {
  const big = new File([new Uint8Array(4096)], "big");
  const { status, body } = await answer(
    multipart({ query: UPLOAD, variables: { file: null } }, { 0: ["variables.file"] }, { 0: big }),
    { maxBodyBytes: 1024 },
  );
  assert.equal(status, 413);
  assert.match(body.errors[0].message, /larger than 1024 bytes/);
});
