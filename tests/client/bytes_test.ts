// The typed client and bytes: a binary leaf resolves to a Blob (decided by the
// response's content type) and is typed Blob; the manifest says which leaves
// declare bytes. And dates in a GET query travel bare, read back as Dates.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createClient, createFetch, toClientManifest } from "@ramify/api/http";
import { createClientFromManifest, type ReceivedOf } from "@ramify/api/client";
import { z } from "zod";
import { assertType, type Equal } from "../support/types.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

const tree = api({
  png: op(() => new File([PNG], "dot.png", { type: "image/png" }), http.get, {
    output: z.file().mime(["image/png"]),
  }),
  buffer: op(() => PNG.slice(), http.get),
  stream: op(() => new Blob(["abc"]).stream(), http.get),
  json: op(() => ({ a: 1 }), http.get),
  since: op(({ after }) => ({ year: after.getUTCFullYear(), at: after }), http.get, {
    input: z.object({ after: z.date(), also: z.array(z.date()).optional(), note: z.string() }),
  }),
});

async function withServer(fn: (base: string) => Promise<void>) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, createFetch(tree));
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("client bytes: a binary leaf resolves to a Blob, over the network and from a manifest", async () => {
  await withServer(async (baseUrl) => {
    for (
      const client of [
        createClient(tree, { baseUrl }),
        createClientFromManifest<typeof tree>(toClientManifest(tree), { baseUrl }),
      ]
    ) {
      const png = await client.png();
      assert.ok(png instanceof Blob);
      assert.equal(png.type, "image/png");
      assert.deepEqual([...new Uint8Array(await png.arrayBuffer())], [...PNG]);
      const buffer = await client.buffer();
      assert.ok(buffer instanceof Blob);
      assert.equal(buffer.size, PNG.length);
      const stream = await client.stream();
      assert.ok(stream instanceof Blob);
      assert.equal(await stream.text(), "abc");
      assert.deepEqual(await client.json(), { a: 1 });
    }
  });
});

Deno.test("client bytes: the manifest says which leaves declare bytes, and they ask for any type", async () => {
  const manifest = toClientManifest(tree);
  const byPath = new Map(manifest.operations.map((o) => [o.path, o]));
  assert.equal(byPath.get("/png")?.bytes, true);
  // Only when true: manifests of trees without bytes stay as they were.
  assert.equal("bytes" in byPath.get("/json")!, false);
  const accepts: string[] = [];
  const client = createClient(tree, {
    fetch: (request) => {
      accepts.push(request.headers.get("accept") ?? "");
      return createFetch(tree)(request);
    },
  });
  await client.png();
  await client.json();
  assert.deepEqual(accepts, ["*/*", "application/json, application/problem+json"]);
  assert.throws(
    () =>
      createClientFromManifest({
        manifest: 1,
        operations: [{ ...byPath.get("/png")!, bytes: "yes" as unknown as boolean }],
      }),
    /bytes/,
  );
});

Deno.test("client bytes: binary results are typed Blob", () => {
  type Png = ReceivedOf<typeof tree.children.png>;
  type Buffer = ReceivedOf<typeof tree.children.buffer>;
  type Stream = ReceivedOf<typeof tree.children.stream>;
  type Json = ReceivedOf<typeof tree.children.json>;
  assertType<Equal<Png, Blob>>(true);
  assertType<Equal<Buffer, Blob>>(true);
  assertType<Equal<Stream, Blob>>(true);
  assertType<Equal<Json, { a: number }>>(true);
  const t = api({
    blob: op(() => new Blob([])),
    arrayBuffer: op(async () => await new Blob([]).arrayBuffer()),
  });
  assertType<Equal<ReceivedOf<typeof t.children.blob>, Blob>>(true);
  assertType<Equal<ReceivedOf<typeof t.children.arrayBuffer>, Blob>>(true);
  const _call = async () => {
    const client = createClient(tree);
    const png = await client.png();
    // @ts-expect-error a Blob is no stream of events
    for await (const _ of png) break;
    // @ts-expect-error a Blob has no JSON keys
    png.a;
    const stream = await client.stream();
    // @ts-expect-error bytes are a Blob, not a ReadableStream
    stream.getReader();
  };
});

Deno.test("client dates: a date in a GET query goes bare and arrives as a Date", async () => {
  await withServer(async (baseUrl) => {
    const urls: string[] = [];
    const client = createClient(tree, {
      baseUrl,
      fetch: (request) => {
        urls.push(request.url);
        return fetch(request);
      },
    });
    const after = new Date("2024-01-01T00:00:00.000Z");
    const result = await client.since({
      after,
      also: [new Date("2025-02-03T04:05:06.000Z")],
      note: "hi there",
    });
    assert.equal(result.year, 2024);
    assert.equal(
      new URL(urls[0]).search,
      "?after=2024-01-01T00%3A00%3A00.000Z&also=2025-02-03T04%3A05%3A06.000Z&note=hi+there",
    );
    // The same query written by hand, as curl would send it.
    const raw = await fetch(`${baseUrl}/since?after=2024-01-01T00:00:00.000Z&note=x`);
    assert.equal(raw.status, 200);
    assert.deepEqual(await raw.json(), { year: 2024, at: "2024-01-01T00:00:00.000Z" });
    const refused = await fetch(`${baseUrl}/since?after=not-a-date&note=x`);
    assert.equal(refused.status, 422);
    await refused.body?.cancel();
  });
});

Deno.test("client bytes: a File the handler names reaches the client as a File of that name", async () => {
  const named = api({
    plain: op(() => new File(["a"], "report.pdf", { type: "application/pdf" }), http.get),
    accented: op(() => new File(["b"], 'résumé "v2".txt', { type: "text/csv" }), http.get),
    blob: op(() => new Blob(["c"], { type: "application/pdf" }), http.get),
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, createFetch(named));
  try {
    const client = createClient(named, { baseUrl: `http://127.0.0.1:${server.addr.port}` });
    const plain = await client.plain();
    assert.ok(plain instanceof File);
    assert.deepEqual([plain.name, plain.type, await plain.text()], [
      "report.pdf",
      "application/pdf",
      "a",
    ]);
    const accented = await client.accented();
    assert.ok(accented instanceof File);
    assert.equal(accented.name, 'résumé "v2".txt');
    const blob = await client.blob();
    assert.equal(blob instanceof File, false, "no name, no File");
  } finally {
    await server.shutdown();
  }
});

Deno.test("client bytes: the file name is read from Content-Disposition, hostile ones included", async () => {
  const one = api({ file: op(() => new Blob([]), http.get) });
  const nameFrom = async (disposition: string) => {
    const client = createClient(one, {
      fetch: () =>
        Promise.resolve(
          new Response("x", {
            headers: { "content-type": "text/plain", "content-disposition": disposition },
          }),
        ),
    });
    const received = await client.file();
    return received instanceof File ? received.name : undefined;
  };
  assert.equal(await nameFrom(`attachment; filename="a.png"`), "a.png");
  assert.equal(await nameFrom(`attachment; filename=a.png`), "a.png");
  assert.equal(await nameFrom(`attachment; filename="x"; filename*=UTF-8''%C3%A9.txt`), "é.txt");
  // Malformed percent-encoding: the plain name stands.
  assert.equal(
    await nameFrom(`attachment; filename="fallback"; filename*=UTF-8''%E0%A4`),
    "fallback",
  );
  assert.equal(await nameFrom(`attachment; filename="a\\"b"`), 'a"b');
  assert.equal(await nameFrom("inline"), undefined);
});
