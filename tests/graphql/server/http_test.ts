// GraphQL over HTTP: graphql-http's own server audits against a real server,
// then our integration tests (methods, media types, status codes, limits,
// context, error masking and mapping) and hostile inputs.
import assert from "node:assert/strict";
import { serverAudits } from "graphql-http";
import fc from "fast-check";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import type { HandlerContext } from "@ramify/api/tree/node";
import { HttpError } from "@ramify/api/http";
import {
  createHttpGraphQLServer,
  graphqlErrors,
  type HttpGraphQLServerOptions,
} from "@ramify/api/graphql";

const GRAPHQL_RESPONSE = "application/graphql-response+json";

class NotFound extends Error {
  override name = "NotFound";
}

const Book = z.object({ id: z.string(), title: z.string() });

/** The test tree: read leaves (Query), a mutation, a crash, a context probe, a subscription. */
function bookTree(seen: HandlerContext[] = []) {
  const books = new Map([["1", { id: "1", title: "Dune" }]]);
  return api({
    books: api({
      list: op(() => [...books.values()], { tags: { readOnly: true }, output: z.array(Book) }),
      add: op(({ title }: { title: string }) => {
        const book = { id: String(books.size + 1), title };
        books.set(book.id, book);
        return book;
      }, { input: z.object({ title: z.string().min(1) }), output: Book }),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }: { bookId: string }) => {
            const book = books.get(bookId);
            if (book === undefined) throw new NotFound(`no book ${bookId}`);
            return book;
          }, { tags: { readOnly: true }, output: Book }),
        }),
      },
    }),
    whoami: op((_input: unknown, ctx: HandlerContext) => {
      seen.push(ctx);
      return String(ctx.user ?? "anonymous");
    }, { tags: { readOnly: true }, output: z.string() }),
    crash: op(() => {
      throw new Error("db password hunter2");
    }, { tags: { readOnly: true }, output: z.string() }),
    echo: op((input: unknown) => input, { tags: { readOnly: true } }),
    big: op(() => 10n, { tags: { readOnly: true } }),
    events: op(async function* () {
      yield 1;
    }, { tags: { streaming: true } }),
  });
}

type Handler = (request: Request) => Promise<Response>;

/** Serves a handler on a free local port for the duration of `fn`. */
async function withServer(handler: Handler, fn: (url: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/graphql`);
  } finally {
    await server.shutdown();
  }
}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
}

/** Fetches and reads the whole body (parsed when it is JSON). */
async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

function post(
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return send(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

function get(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
  return send(target.href, { headers });
}

const strict = { accept: GRAPHQL_RESPONSE };

function quiet(extra: HttpGraphQLServerOptions = {}): HttpGraphQLServerOptions & {
  readonly crashes: unknown[];
} {
  const crashes: unknown[] = [];
  return { onError: (error: unknown) => crashes.push(error), ...extra, crashes };
}

function codes(reply: Reply): string[] {
  return (reply.body?.errors ?? []).map((e: { extensions?: { code?: string } }) =>
    e.extensions?.code
  );
}

// ---------------------------------------------------------------- audits

Deno.test("graphql-http server audits: every audit is ok", async () => {
  const handler = createHttpGraphQLServer(bookTree(), quiet());
  await withServer(handler, async (url) => {
    // Each response is read in full, so no body is left open when the server stops.
    const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      const bytes = await response.arrayBuffer();
      return new Response(bytes, { status: response.status, headers: response.headers });
    };
    const audits = serverAudits({ url, fetchFn });
    assert.ok(audits.length >= 50, `only ${audits.length} audits`);
    const failures: string[] = [];
    for (const audit of audits) {
      const result = await audit.fn();
      if (result.status !== "ok") {
        failures.push(
          `${audit.id} ${audit.name}: ${result.status}: ${"reason" in result ? result.reason : ""}`,
        );
      }
    }
    assert.deepEqual(failures, [], `failed audits:\n${failures.join("\n")}`);
  });
});

// ---------------------------------------------------------------- requests

Deno.test("GET runs a query, with JSON-encoded variables and an operation name", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const plain = await get(url, { query: "{ books { list { id title } } }" });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(plain.body, { data: { books: { list: [{ id: "1", title: "Dune" }] } } });

    const withVariables = await get(url, {
      query: "query Read($id: ID!) { books { read(bookId: $id) { title } } }",
      variables: JSON.stringify({ id: "1" }),
      operationName: "Read",
      extensions: JSON.stringify({ trace: true }),
    }, strict);
    assert.equal(withVariables.status, 200);
    assert.equal(
      withVariables.headers.get("content-type"),
      "application/graphql-response+json; charset=utf-8",
    );
    assert.deepEqual(withVariables.body, { data: { books: { read: { title: "Dune" } } } });

    const empty = await get(url, { query: "{ whoami }", operationName: "" });
    assert.deepEqual(empty.body, { data: { whoami: "anonymous" } });
  });
});

Deno.test("POST runs queries and mutations with variables; GET refuses mutations", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const added = await post(url, {
      query: "mutation Add($title: String!) { booksAdd(title: $title) { id title } }",
      variables: { title: "Emma" },
    }, strict);
    assert.equal(added.status, 200);
    assert.deepEqual(added.body, { data: { booksAdd: { id: "2", title: "Emma" } } });

    const listed = await post(url, { query: "{ books { list { title } } }" });
    assert.deepEqual(listed.body.data.books.list, [{ title: "Dune" }, { title: "Emma" }]);

    const document = 'query Who { whoami } mutation Add { booksAdd(title: "Ulysses") { id } }';
    const chosen = await post(url, { query: document, operationName: "Add" });
    assert.deepEqual(chosen.body, { data: { booksAdd: { id: "3" } } });

    for (const headers of [strict, {}]) {
      const overGet = await get(
        url,
        { query: 'mutation { booksAdd(title: "x") { id } }' },
        headers,
      );
      assert.equal(overGet.status, 405);
      assert.equal(overGet.headers.get("allow"), "POST");
      assert.deepEqual(codes(overGet), ["METHOD_NOT_ALLOWED"]);
    }
    const named = await get(url, { query: document, operationName: "Add" });
    assert.equal(named.status, 405);
    const query = await get(url, { query: document, operationName: "Who" });
    assert.deepEqual(query.body, { data: { whoami: "anonymous" } });
    // A mutation that does not even validate is still refused as a mutation.
    const invalid = await get(url, { query: "mutation { nothing }" });
    assert.equal(invalid.status, 405);

    const after = await post(url, { query: "{ books { list { id } } }" });
    assert.equal(after.body.data.books.list.length, 3, "no mutation ran over GET");
  });
});

Deno.test("Accept negotiation: preference, q-values, wildcards, charset, 406", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const typeFor = async (accept: string | undefined) => {
      const reply = await post(
        url,
        { query: "{ whoami }" },
        accept === undefined ? {} : { accept },
      );
      return reply.status === 406 ? 406 : reply.headers.get("content-type")?.split(";")[0];
    };
    assert.equal(await typeFor(undefined), "application/json");
    assert.equal(await typeFor("*/*"), "application/json");
    assert.equal(await typeFor("application/*"), "application/json");
    assert.equal(await typeFor(GRAPHQL_RESPONSE), GRAPHQL_RESPONSE);
    assert.equal(await typeFor(`${GRAPHQL_RESPONSE}, application/json`), GRAPHQL_RESPONSE);
    assert.equal(await typeFor(`application/json, ${GRAPHQL_RESPONSE}`), "application/json");
    assert.equal(await typeFor(`application/json;q=0.5, ${GRAPHQL_RESPONSE}`), GRAPHQL_RESPONSE);
    assert.equal(await typeFor(`${GRAPHQL_RESPONSE};q=0, */*`), "application/json");
    assert.equal(await typeFor(`text/html, */*;q=0.1`), "application/json");
    assert.equal(
      await typeFor(`${GRAPHQL_RESPONSE}; charset=utf-8, application/json; charset=utf-8`),
      GRAPHQL_RESPONSE,
    );
    assert.equal(await typeFor(`${GRAPHQL_RESPONSE}; charset="UTF-8"`), GRAPHQL_RESPONSE);
    assert.equal(await typeFor("text/html"), 406);
    assert.equal(await typeFor("application/json; charset=iso-8859-1"), 406);
    assert.equal(await typeFor("application/json;q=0"), 406);
    assert.equal(await typeFor("application/json;q=banana"), 406);

    const refused = await post(url, { query: "{ whoami }" }, { accept: "text/html" });
    assert.equal(refused.headers.get("content-type"), "application/problem+json");
    assert.equal(refused.body.status, 406);
  });
});

Deno.test("415 for other media types and charsets; 4xx without a Content-Type", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const body = JSON.stringify({ query: "{ whoami }" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/graphql"]) {
      const reply = await send(url, { method: "POST", headers: { "content-type": type }, body });
      assert.equal(reply.status, 415, type);
      assert.equal(reply.headers.get("accept-post"), "application/json");
      assert.deepEqual(codes(reply), ["UNSUPPORTED_MEDIA_TYPE"]);
    }
    const latin1 = await post(url, body, { "content-type": "application/json; charset=latin1" });
    assert.equal(latin1.status, 415);
    const none = await send(url, { method: "POST", body: new TextEncoder().encode(body) });
    assert.equal(none.status, 415);
    const utf8 = await post(url, body, { "content-type": 'Application/JSON; Charset="utf-8"' });
    assert.equal(utf8.status, 200);
  });
});

Deno.test("404 for other paths, 405 with Allow for other methods, OPTIONS answers", async () => {
  const handler = createHttpGraphQLServer(bookTree(), quiet({ path: "/api/gql" }));
  await withServer(handler, async (url) => {
    const base = url.replace("/graphql", "");
    const missing = await get(`${base}/graphql`, { query: "{ whoami }" });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    const served = await get(`${base}/api/gql`, { query: "{ whoami }" });
    assert.deepEqual(served.body, { data: { whoami: "anonymous" } });
    for (const method of ["PUT", "DELETE", "PATCH", "HEAD"]) {
      const reply = await send(`${base}/api/gql`, { method });
      assert.equal(reply.status, 405, method);
      assert.equal(reply.headers.get("allow"), "GET, POST, OPTIONS");
    }
    const options = await send(`${base}/api/gql`, { method: "OPTIONS" });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get("allow"), "GET, POST, OPTIONS");
  });
  assert.throws(() => createHttpGraphQLServer(bookTree(), { path: "graphql" }), TypeError);
});

Deno.test("400 for requests that are not well-formed, whatever the media type", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const bad: [string, unknown][] = [
      ["bad JSON", '{ "query": '],
      ["a JSON array", "[]"],
      ["a JSON string", '"{ whoami }"'],
      ["no query", { variables: {} }],
      ["a typo", { qeury: "{ whoami }" }],
      ["a numeric query", { query: 1 }],
      ["a null query", { query: null }],
      ["string variables", { query: "{ whoami }", variables: "{}" }],
      ["array variables", { query: "{ whoami }", variables: [7] }],
      ["numeric operationName", { query: "{ whoami }", operationName: 7 }],
      ["array extensions", { query: "{ whoami }", extensions: ["x"] }],
    ];
    for (const headers of [strict, { accept: "application/json" }]) {
      for (const [what, payload] of bad) {
        const reply = await post(url, payload, headers);
        assert.equal(reply.status, 400, what);
        assert.deepEqual(codes(reply), ["BAD_REQUEST"], what);
        assert.equal(reply.body.data, undefined, what);
      }
    }
    const empty = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    assert.equal(empty.status, 400);
    const notUtf8 = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    assert.equal(notUtf8.status, 400);

    const badGets: Record<string, string>[] = [
      {},
      { variables: "{}" },
      { query: "{ whoami }", variables: "{" },
      { query: "{ whoami }", variables: "[1]" },
      { query: "{ whoami }", extensions: "3" },
    ];
    for (const params of badGets) {
      const reply = await get(url, params);
      assert.equal(reply.status, 400, JSON.stringify(params));
    }
    const twice = await send(`${url}?query=%7Bwhoami%7D&query=%7Bcrash%7D`);
    assert.equal(twice.status, 400);
    assert.match(twice.body.errors[0].message, /more than once/);
  });
});

Deno.test("request errors: 400 with graphql-response+json, 200 with application/json", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const cases: [string, unknown, string][] = [
      ["parse failure", { query: "{" }, "GRAPHQL_PARSE_FAILED"],
      ["validation failure", { query: "{ nothing }" }, "GRAPHQL_VALIDATION_FAILED"],
      [
        "unknown operation",
        { query: "query A { whoami }", operationName: "B" },
        "OPERATION_RESOLUTION_FAILURE",
      ],
      [
        "ambiguous operation",
        { query: "query A { whoami } query B { whoami }" },
        "OPERATION_RESOLUTION_FAILURE",
      ],
      [
        "variable coercion",
        { query: "mutation Add($t: String!) { booksAdd(title: $t) { id } }", variables: {} },
        "BAD_USER_INPUT",
      ],
      ["subscription", { query: "subscription { events }" }, "OPERATION_NOT_SUPPORTED"],
    ];
    for (const [what, payload, code] of cases) {
      const strictReply = await post(url, payload, strict);
      assert.equal(strictReply.status, 400, what);
      assert.equal(strictReply.body.data, undefined, what);
      assert.deepEqual(codes(strictReply), [code], what);
      const legacyReply = await post(url, payload, { accept: "application/json" });
      assert.equal(legacyReply.status, 200, what);
      assert.deepEqual(codes(legacyReply), [code], what);
    }
    const subscription = await post(url, { query: "subscription { events }" }, strict);
    assert.match(subscription.body.errors[0].message, /WebSocket/);
    const overGet = await get(url, { query: "subscription { events }" }, strict);
    assert.equal(overGet.status, 400);
  });
});

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

Deno.test("the context function reaches handlers as { request, signal, ...yours }", async () => {
  const seen: HandlerContext[] = [];
  const handler = createHttpGraphQLServer(
    bookTree(seen),
    quiet({
      context: async (request) => {
        await Promise.resolve();
        return { user: request.headers.get("x-user") ?? undefined, tenant: "acme" };
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
  });

  const sync = createHttpGraphQLServer(bookTree(), quiet({ context: () => ({ user: "sync" }) }));
  await withServer(sync, async (url) => {
    assert.deepEqual((await get(url, { query: "{ whoami }" })).body, { data: { whoami: "sync" } });
  });
});

Deno.test("a context function refuses with an HttpError's status, or crashes masked", async () => {
  const refusing = quiet({
    context: (request) => {
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
    assert.equal(crash.body.data, null);
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

// ---------------------------------------------------------------- hostile input

Deno.test("hostile: huge documents, deep nesting, many tokens and aliases are refused", async () => {
  const opts = quiet();
  await withServer(createHttpGraphQLServer(bookTree(), opts), async (url) => {
    const huge = await post(url, { query: `{ whoami }${" ".repeat(2 * 1024 * 1024)}` });
    assert.equal(huge.status, 413);
    const long = await post(url, { query: `{ whoami }${"#".repeat(200_000)}` });
    assert.equal(long.status, 413);

    const tokens = await post(url, { query: `{ ${"whoami ".repeat(12_000)}}` }, strict);
    assert.equal(tokens.status, 400);
    assert.deepEqual(codes(tokens), ["GRAPHQL_PARSE_FAILED"]);
    assert.match(tokens.body.errors[0].message, /tokens/);

    for (const depth of [100, 4000]) {
      const nested = await post(url, {
        query: `{ ${"books { ".repeat(depth)}list${" }".repeat(depth)} }`,
      }, strict);
      assert.equal(nested.status, 400, `depth ${depth}`);
      assert.ok(!nested.text.includes("RangeError"));
    }
    const list = await post(url, {
      query: `{ echo(input: ${"[".repeat(5000)}${"]".repeat(5000)}) }`,
    }, strict);
    assert.equal(list.status, 400);
    assert.ok(!list.text.includes("RangeError"));

    const deepVariables = `{"query":"query($v: JSON) { echo(input: $v) }","variables":{"v":${
      "[".repeat(100_000)
    }${"]".repeat(100_000)}}}`;
    const variables = await post(url, deepVariables);
    assert.equal(variables.status, 400);
    assert.match(variables.body.errors[0].message, /deeper than 64/);

    const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: whoami`).join(" ");
    const aliased = await post(url, { query: `{ ${aliases} }` }, strict);
    assert.equal(aliased.status, 400);
    assert.match(aliased.body.errors[0].message, /aliases/);

    const fine = await post(url, { query: "{ whoami }" });
    assert.deepEqual(fine.body, { data: { whoami: "anonymous" } });
    assert.deepEqual(opts.crashes, []);
  });
});

Deno.test("hostile: __proto__ keys in the body and in variables stay plain keys", async () => {
  await withServer(createHttpGraphQLServer(bookTree(), quiet()), async (url) => {
    const raw =
      `{"__proto__":{"query":"mutation { booksAdd(title: \\"x\\") { id } }"},"query":"query($v: JSON) { echo(input: $v) }",` +
      `"variables":{"__proto__":{"polluted":1},"v":{"__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}},"a":1}}}`;
    const reply = await post(url, raw);
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body.data.echo).sort(), ["__proto__", "a", "constructor"]);
    assert.deepEqual(
      JSON.parse(reply.text).data.echo.__proto__,
      { polluted: 2 },
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);

    const onlyProto = await post(url, `{"__proto__":{"query":"{ whoami }"}}`);
    assert.equal(onlyProto.status, 400, "a query inherited from __proto__ is no query");
  });
});

Deno.test("hostile: arbitrary bodies and headers never crash the handler", async () => {
  const opts = quiet();
  const handler = createHttpGraphQLServer(bookTree(), opts);
  const types = ["application/json", "application/json; charset=utf-8", "text/plain", "", "x/y;;="];
  const accepts = [GRAPHQL_RESPONSE, "application/json", "*/*", "", "a/b;q=2, */*;q=0.5", ",,;q="];
  const queries = fc.oneof(
    fc.string(),
    fc.constantFrom(
      "{ whoami }",
      "{ books { list { id } } }",
      'mutation { booksAdd(title: "t") { id } }',
    ),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.json(),
        fc.record({ query: queries, variables: fc.option(fc.jsonValue()) }),
        fc.record({ query: queries, operationName: fc.option(fc.string()) }),
      ),
      fc.constantFrom(...types),
      fc.constantFrom(...accepts),
      fc.constantFrom("GET", "POST"),
      async (payload, type, accept, method) => {
        const body = typeof payload === "string" ? payload : JSON.stringify(payload);
        const headers: Record<string, string> = { "content-type": type, accept };
        const request = method === "GET"
          ? new Request(
            `http://localhost/graphql?${new URLSearchParams({ query: body, variables: body })}`,
            { headers },
          )
          : new Request("http://localhost/graphql", { method, headers, body });
        const response = await handler(request);
        const text = await response.text();
        assert.ok(response.status < 500, `${response.status} ${text}`);
        assert.doesNotThrow(() => JSON.parse(text));
      },
    ),
    { numRuns: 300 },
  );
  assert.deepEqual(opts.crashes, []);
});
