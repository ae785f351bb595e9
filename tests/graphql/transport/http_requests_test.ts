// GraphQL over HTTP: graphql-http's server audits, then methods, media types,
// status codes and request errors.
import assert from "node:assert/strict";
import { serverAudits } from "graphql-http";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import {
  bookTree,
  codes,
  get,
  GRAPHQL_RESPONSE,
  post,
  quiet,
  send,
  strict,
  withServer,
} from "./http_support.ts";

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
      assert.equal(reply.headers.get("accept-post"), "application/json, multipart/form-data");
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

/** A request whose `url` is relative, as Bun gives one without `Host` (Deno's `Request` cannot). */
function relative(url: string, init: RequestInit = {}): Request {
  const request = new Request(`http://localhost${url}`, init);
  Object.defineProperty(request, "url", { value: url });
  return request;
}

Deno.test("a relative request URL (Bun, no Host) is served by its path", async () => {
  const handler = createHttpGraphQLServer(bookTree(), quiet({ path: "/api/gql" }));
  const query = (url: string) =>
    handler(relative(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: GRAPHQL_RESPONSE },
      body: JSON.stringify({ query: "{ whoami }" }),
    }));
  for (const url of ["/api/gql", "/api/gql?x=1", "/api/gql#top"]) {
    const served = await query(url);
    assert.equal(served.status, 200, url);
    assert.deepEqual(await served.json(), { data: { whoami: "anonymous" } });
  }
  for (const url of ["/graphql", "/api/gql/more", "/api/gqlx", "/"]) {
    const missing = await query(url);
    assert.equal(missing.status, 404, url);
    await missing.body?.cancel();
  }
  const got = await handler(relative(`/api/gql?query=${encodeURIComponent("{ whoami }")}`));
  assert.deepEqual(await got.json(), { data: { whoami: "anonymous" } });
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
