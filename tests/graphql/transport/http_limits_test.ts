// GraphQL over HTTP: limits, the context function, error masking and mapping.
import assert from "node:assert/strict";
import type { HandlerContext } from "@ramify/api/tree/node";
import type { ContextSource } from "@ramify/api/tree";
import { HttpError } from "@ramify/api/tree";
import { createHttpGraphQLServer, graphqlErrors } from "@ramify/api/graphql";
import { bookTree, codes, get, post, quiet, send, strict, withServer } from "./http_support.ts";

// ---------------------------------------------------------------- limits

Deno.test("413 over the body limit, declared or streamed; 413/414 over the document length", async () => {
  const handler = createHttpGraphQLServer(bookTree(), quiet({ maxBodyBytes: 1024 }));
  await withServer(handler, async (url) => {
    const big = JSON.stringify({ query: "{ whoami }", variables: { pad: "x".repeat(2048) } });
    const declared = await post(url, big);
    assert.equal(declared.status, 413);
    assert.deepEqual(codes(declared), ["PAYLOAD_TOO_LARGE"]);
    const streamed = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Blob([big]).stream(),
    });
    assert.equal(streamed.status, 413);
    const fits = await post(url, { query: "{ whoami }" });
    assert.equal(fits.status, 200);
  });
  const short = createHttpGraphQLServer(bookTree(), quiet({ maxQueryLength: 1000 }));
  await withServer(short, async (url) => {
    const long = `{ whoami ${"#".repeat(2000)}\n}`;
    assert.equal((await post(url, { query: long })).status, 413);
    assert.equal((await get(url, { query: long })).status, 414);
  });
});

Deno.test("introspection off, depth and alias limits are validation errors", async () => {
  const handler = createHttpGraphQLServer(
    bookTree(),
    quiet({ introspection: false, limits: { maxDepth: 2, maxAliases: 3 } }),
  );
  await withServer(handler, async (url) => {
    const schema = await post(url, { query: "{ __schema { types { name } } }" }, strict);
    assert.equal(schema.status, 400);
    assert.match(
      schema.body.errors.map((e: { message: string }) => e.message).join(),
      /Introspection/,
    );
    const type = await get(url, { query: '{ __type(name: "Query") { name } }' }, strict);
    assert.equal(type.status, 400);

    const deep = await post(url, { query: '{ books { read(bookId: "1") { title } } }' }, strict);
    assert.equal(deep.status, 400);
    assert.deepEqual(codes(deep), ["GRAPHQL_VALIDATION_FAILED"]);
    assert.match(deep.body.errors[0].message, /deeper than 2/);
    const shallow = await post(url, { query: "{ books { __typename } }" }, strict);
    assert.deepEqual(shallow.body, { data: { books: { __typename: "BooksQuery" } } });

    const aliases = await post(
      url,
      { query: "{ a: whoami b: whoami c: whoami d: whoami }" },
      strict,
    );
    assert.equal(aliases.status, 400);
    assert.match(aliases.body.errors[0].message, /more than 3 aliases/);
    const typename = await post(url, { query: "{ __typename }" }, strict);
    assert.deepEqual(typename.body, { data: { __typename: "Query" } });
  });
});

// ---------------------------------------------------------------- context and errors

Deno.test("the context function is told { surface, request } and reaches handlers as { request, signal, ...yours }", async () => {
  const seen: HandlerContext[] = [];
  const sources: ContextSource[] = [];
  const handler = createHttpGraphQLServer(
    bookTree(seen),
    quiet({
      context: async (source) => {
        sources.push(source);
        await Promise.resolve();
        return { user: source.request.headers.get("x-user") ?? undefined, tenant: "acme" };
      },
    }),
  );
  await withServer(handler, async (url) => {
    const reply = await post(url, { query: "{ whoami }" }, { "x-user": "ada" });
    assert.deepEqual(reply.body, { data: { whoami: "ada" } });
    const context = seen[0];
    assert.ok(context.request instanceof Request);
    assert.equal(context.request.headers.get("x-user"), "ada");
    assert.ok(context.signal instanceof AbortSignal);
    assert.equal(context.tenant, "acme");
    assert.equal(sources[0].surface, "graphql");
    assert.equal(sources[0].request, context.request);
  });

  const sync = createHttpGraphQLServer(bookTree(), quiet({ context: () => ({ user: "sync" }) }));
  await withServer(sync, async (url) => {
    assert.deepEqual((await get(url, { query: "{ whoami }" })).body, { data: { whoami: "sync" } });
  });
});

Deno.test("a context function refuses with an HttpError's status, or crashes masked", async () => {
  const refusing = quiet({
    context: ({ request }) => {
      if (request.headers.get("authorization") === null) {
        throw new HttpError(401, "Sign in first", { headers: { "www-authenticate": "Bearer" } });
      }
      if (request.headers.get("authorization") === "crash") throw new Error("vault key 42");
      return { user: "signed-in" };
    },
  });
  await withServer(createHttpGraphQLServer(bookTree(), refusing), async (url) => {
    const anonymous = await post(url, { query: "{ whoami }" }, strict);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    assert.deepEqual(codes(anonymous), ["UNAUTHENTICATED"]);
    assert.equal(anonymous.body.errors[0].message, "Sign in first");

    const crash = await post(url, { query: "{ whoami }" }, { authorization: "crash" });
    assert.equal(crash.status, 500);
    assert.deepEqual(codes(crash), ["INTERNAL_SERVER_ERROR"]);
    assert.ok(!crash.text.includes("vault"));
    assert.equal(refusing.crashes.length, 1);

    const signedIn = await post(url, { query: "{ whoami }" }, { authorization: "Bearer x" });
    assert.deepEqual(signedIn.body, { data: { whoami: "signed-in" } });
  });
});

Deno.test("handler errors are masked unless mapped; schema failures are BAD_USER_INPUT", async () => {
  const opts = quiet({ errors: graphqlErrors({ NotFound: "NOT_FOUND" }) });
  await withServer(createHttpGraphQLServer(bookTree(), opts), async (url) => {
    const crash = await post(url, { query: "{ crash }" }, strict);
    assert.equal(crash.status, 200, "execution began: a field error");
    assert.deepEqual(crash.body.data, { crash: null });
    assert.deepEqual(codes(crash), ["INTERNAL_SERVER_ERROR"]);
    assert.equal(crash.body.errors[0].message, "Unexpected error.");
    assert.ok(!crash.text.includes("hunter2"));
    assert.equal(opts.crashes.length, 1);

    const missing = await post(url, { query: '{ books { read(bookId: "9") { title } } }' });
    assert.equal(missing.status, 200);
    assert.deepEqual(codes(missing), ["NOT_FOUND"]);
    assert.equal(missing.body.errors[0].message, "no book 9");
    assert.deepEqual(missing.body.errors[0].path, ["books", "read"]);

    const invalid = await post(url, { query: 'mutation { booksAdd(title: "") { id } }' }, strict);
    assert.equal(invalid.status, 200);
    assert.deepEqual(codes(invalid), ["BAD_USER_INPUT"]);
    assert.ok(Array.isArray(invalid.body.errors[0].extensions.issues));

    // A value JSON cannot hold is a crash after execution: masked, 500.
    const bigint = await post(url, { query: "{ big }" }, strict);
    assert.equal(bigint.status, 500);
    assert.deepEqual(bigint.body, {
      errors: [{ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } }],
    });
  });
});
