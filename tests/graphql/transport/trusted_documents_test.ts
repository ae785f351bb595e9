// Trusted documents: a server given the documents its clients send runs those
// (by text or by id) and refuses anything else, over HTTP and WebSocket; ids
// are read from `documentId` and from Apollo's `persistedQuery` extension, and
// no id a client makes up reaches a prototype or the document cache.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
  projectGraphQL,
  toTrustedDocuments,
} from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { codes, GRAPHQL_RESPONSE, post, send, strict, withServer } from "./http_support.ts";
import { collect, connect, within } from "./ws_support.ts";

const Book = z.object({ id: z.string(), title: z.string() });

function shelf() {
  const books = [{ id: "1", title: "Dune" }];
  return api({
    books: api({
      list: op(() => books, { tags: { readOnly: true }, output: z.array(Book) }),
      add: op(({ title }: { title: string }) => ({ id: String(books.length + 1), title }), {
        input: z.object({ title: z.string() }),
        output: Book,
      }),
    }),
    ticks: op(async function* ({ to }: { to: number }) {
      for (let i = 1; i <= to; i++) yield i;
    }, {
      tags: { streaming: true },
      input: z.object({ to: z.number().int() }),
      output: z.number(),
    }),
  });
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("toTrustedDocuments: one document per field, by the SHA-256 of its text", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  assert.equal(Object.keys(documents).length, projectGraphQL(tree).fields.length);
  for (const [id, text] of Object.entries(documents)) {
    assert.equal(id, `sha256:${await sha256(text)}`);
  }
  assert.deepEqual(await toTrustedDocuments(tree), documents, "the same tree, the same list");
  // The clients' documents, not others: every one of them is in the generated module.
  const generated = generateGraphQLClient(tree);
  for (const text of Object.values(documents)) assert.ok(generated.includes(JSON.stringify(text)));
});

Deno.test("trusted documents: the typed and generated clients run; other documents are refused", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  const handler = createHttpGraphQLServer(tree, { trustedDocuments: { documents } });
  const dir = await Deno.makeTempDir({ prefix: "ramify-trusted-" });
  try {
    await withServer(handler, async (url) => {
      const client = createGraphQLClient(tree, { transport: httpTransport({ url }) });
      assert.deepEqual(await client.books.list(), [{ id: "1", title: "Dune" }]);
      assert.deepEqual(await client.books.add({ title: "Emma" }), { id: "2", title: "Emma" });

      await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
      const generated = await import(`file://${dir}/client.ts`);
      const made = generated.createClient(generated.httpTransport(url));
      assert.deepEqual(await made.books.list(), [{ id: "1", title: "Dune" }]);

      // A document of one's own, however harmless, or a trusted one changed by a space.
      const listed = Object.values(documents).find((text) => text.startsWith("query BooksList"))!;
      for (const query of ["{ __typename }", `${listed} `, "{ books { list { id } } }"]) {
        const refused = await post(url, { query }, strict);
        assert.equal(refused.status, 400);
        assert.deepEqual(codes(refused), ["PERSISTED_QUERY_ONLY"]);
        assert.equal(refused.headers.get("content-type"), `${GRAPHQL_RESPONSE}; charset=utf-8`);
      }
      const legacy = await send(`${url}?query=${encodeURIComponent("{ __typename }")}`);
      assert.equal(legacy.status, 200);
      assert.deepEqual(codes(legacy), ["PERSISTED_QUERY_ONLY"]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trusted documents: ids by documentId (POST and GET) and Apollo's persistedQuery", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  const [id, text] = Object.entries(documents).find(([, text]) =>
    text.startsWith("query BooksList")
  )!;
  const listed = { data: { books: { list: [{ id: "1", title: "Dune" }] } } };
  await withServer(
    createHttpGraphQLServer(tree, { trustedDocuments: { documents } }),
    async (url) => {
      assert.deepEqual((await post(url, { documentId: id })).body, listed);
      assert.deepEqual((await post(url, { documentId: id, query: text })).body, listed);
      assert.deepEqual(
        (await send(`${url}?documentId=${encodeURIComponent(id)}`)).body,
        listed,
      );
      const apollo = { persistedQuery: { version: 1, sha256Hash: id.slice("sha256:".length) } };
      assert.deepEqual((await post(url, { extensions: apollo })).body, listed);
      const upper = {
        persistedQuery: { version: 1, sha256Hash: id.slice("sha256:".length).toUpperCase() },
      };
      assert.deepEqual((await post(url, { extensions: upper })).body, listed);

      // An id the list does not hold: Apollo's clients answer it by sending the text.
      const unknown = await post(url, { documentId: `sha256:${"0".repeat(64)}` }, strict);
      assert.equal(unknown.status, 400);
      assert.deepEqual(codes(unknown), ["PERSISTED_QUERY_NOT_FOUND"]);
    },
  );
});

Deno.test("trusted documents: hostile ids are refused, never read from a prototype", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  const [id] = Object.keys(documents);
  await withServer(
    createHttpGraphQLServer(tree, { trustedDocuments: { documents } }),
    async (url) => {
      for (const documentId of ["__proto__", "constructor", "toString", "hasOwnProperty", "0"]) {
        const reply = await post(url, { documentId }, strict);
        assert.deepEqual(codes(reply), ["PERSISTED_QUERY_NOT_FOUND"], documentId);
      }
      const malformed: unknown[] = [
        { documentId: 5 },
        { documentId: "" },
        { documentId: ["x"] },
        { documentId: { toString: "x" } },
        { documentId: "x".repeat(10_000) },
        { extensions: { persistedQuery: "x" } },
        { extensions: { persistedQuery: { sha256Hash: "abc" } } },
        { extensions: { persistedQuery: { sha256Hash: "g".repeat(64) } } },
        { extensions: { persistedQuery: { sha256Hash: 7 } } },
        { extensions: { persistedQuery: JSON.parse('{"__proto__": {"sha256Hash": "x"}}') } },
        { documentId: id, query: "{ __typename }" },
        {},
      ];
      for (const body of malformed) {
        const reply = await post(url, body as Record<string, unknown>, strict);
        assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(codes(reply), ["BAD_REQUEST"], JSON.stringify(body).slice(0, 80));
      }
      const repeated = await send(`${url}?documentId=${encodeURIComponent(id)}&documentId=x`);
      assert.equal(repeated.status, 400);
    },
  );
});

Deno.test("trusted documents: refused texts take no room in the document cache", async () => {
  const tree = shelf();
  const server = createGraphQLServer(tree, {
    trustedDocuments: { documents: await toTrustedDocuments(tree) },
  });
  for (let i = 0; i < 10_000; i++) {
    const result = await server.execute({ query: `{ books { list { id } } } # ${i}` });
    assert.equal(result.errors?.[0].extensions.code, "PERSISTED_QUERY_ONLY");
  }
  assert.equal(server.stats.documents, 0);
});

Deno.test("trusted documents: allowUntrusted runs other documents and still reads ids", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  await withServer(
    createHttpGraphQLServer(tree, { trustedDocuments: { documents, allowUntrusted: true } }),
    async (url) => {
      assert.deepEqual((await post(url, { query: "{ __typename }" })).body, {
        data: { __typename: "Query" },
      });
      const [id] = Object.keys(documents);
      assert.equal((await post(url, { documentId: id })).status, 200);
    },
  );
});

Deno.test("trusted documents: a malformed option throws when the server is made", () => {
  const tree = shelf();
  const bad: unknown[] = [
    null,
    "x",
    { documents: null },
    { documents: ["query A { a }"] },
    { documents: { a: 1 } },
    { documents: { "": "query A { a }" } },
    { documents: { ["x".repeat(300)]: "query A { a }" } },
    { documents: {}, allowUntrusted: "yes" },
  ];
  for (const trustedDocuments of bad) {
    const opts = { trustedDocuments } as Parameters<typeof createGraphQLServer>[1];
    assert.throws(
      () => createGraphQLServer(tree, opts),
      TypeError,
      JSON.stringify(trustedDocuments),
    );
    // The HTTP transport loads on its first request, but checks its options at once.
    assert.throws(() => createHttpGraphQLServer(tree, opts), TypeError);
  }
  // Copied when made: a later change to the record changes nothing.
  const documents: Record<string, string> = {};
  const server = createGraphQLServer(tree, { trustedDocuments: { documents } });
  documents.x = "{ __typename }";
  assert.equal(server.trustedDocument("x"), undefined);
});

Deno.test("trusted documents over WebSocket: by text or id; others refused", async () => {
  const tree = shelf();
  const documents = await toTrustedDocuments(tree);
  const server = createGraphQLServer(tree, { trustedDocuments: { documents } });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createWsHandler(server),
  );
  const { client, dispose } = connect(`ws://127.0.0.1:${http.addr.port}/graphql`);
  try {
    const [id, text] = Object.entries(documents).find(([, text]) =>
      text.startsWith("subscription")
    )!;
    const byId = (payload: Record<string, unknown>) => {
      const data: unknown[] = [];
      return within(
        new Promise<{ data: unknown[]; errors?: unknown }>((resolve) => {
          client.subscribe({ query: "", variables: { to: 2 }, ...payload }, {
            next: (result) => data.push(result.data),
            error: (errors) => resolve({ data, errors }),
            complete: () => resolve({ data }),
          });
        }),
        "a subscription by id",
      );
    };
    assert.deepEqual(await byId({ query: text }), { data: [{ ticks: 1 }, { ticks: 2 }] });
    assert.deepEqual(await byId({ documentId: id }), { data: [{ ticks: 1 }, { ticks: 2 }] });
    assert.deepEqual(
      await byId({ extensions: { persistedQuery: { version: 1, sha256Hash: id.slice(7) } } }),
      { data: [{ ticks: 1 }, { ticks: 2 }] },
    );
    const refused = await collect(client, "subscription { ticks(to: 1) }");
    assert.equal(
      (refused.errors?.[0] as { extensions?: { code?: string } }).extensions?.code,
      "PERSISTED_QUERY_ONLY",
    );
    const unknown = await byId({ documentId: "__proto__" });
    assert.equal(
      (unknown.errors as { extensions?: { code?: string } }[])[0].extensions?.code,
      "PERSISTED_QUERY_NOT_FOUND",
    );
  } finally {
    await dispose();
    await http.shutdown();
  }
});
