// Context, guards, reply() and declared errors over the network: the
// createFetch context option, 401 with WWW-Authenticate, 403, API keys and
// cookies, 201 with Location and Set-Cookie, declared errors as problems,
// the OpenAPI document's security and responses, and the typed client's
// credentials and narrowable errors.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  api,
  auth,
  ClientError,
  type ClientErrorOf,
  createClient,
  createFetch,
  HttpError,
  LeafError,
  type Middleware,
  op,
  reply,
  safe,
  toOpenApi,
  use,
} from "@ramify/api";
import type { ContextFunction, RequestContextSource } from "@ramify/api/tree";
import { withServer } from "../../support/server.ts";

const users: Record<string, { name: string; admin: boolean }> = {
  "t-ann": { name: "Ann", admin: true },
  "t-bob": { name: "Bob", admin: false },
};
const bearer = auth({ from: "bearer", verify: (token) => users[token] });
const admin = auth({
  from: "bearer",
  verify: (token) => users[token],
  allow: (user) => user.admin,
});
const apiKey = auth({
  from: { header: "x-api-key" },
  verify: (key) => key === "k1" ? "svc" : undefined,
});
const session = auth({
  from: { cookie: "sid" },
  verify: (sid) => sid === "s 1" ? "ann" : undefined,
});
const order: string[] = [];
const traced: Middleware = async (_call, next) => {
  order.push("traced");
  return await next();
};

const Note = z.object({ id: z.string(), text: z.string(), by: z.string(), tenant: z.string() });

const tree = api({
  notes: api({
    add: op((input, ctx) => {
      order.push("handler");
      return reply(
        { id: "n1", text: input.text, by: ctx.user.name, tenant: String(ctx.tenant) },
        {
          headers: { location: "/notes/n1" },
          cookies: [{ name: "last", value: "n 1", httpOnly: true, path: "/" }],
        },
      );
    }, {
      input: z.object({ text: z.string().min(1) }),
      output: Note,
      http: { status: 201, headers: { location: { description: "The new note" } } },
    }, use(traced, bearer)),
    wipe: op(() => undefined, { tags: { destructive: true } }, use(admin)),
    queue: op(() => ({ queued: true }), { http: { status: 202 } }),
    service: op((_input, ctx) => ctx.user, use(apiKey)),
    mine: op((_input, ctx) => ctx.user, use(session)),
  }, {
    fallback: {
      name: "noteId",
      subtree: api({
        read: op(({ noteId }) => {
          throw new LeafError("NOTE_NOT_FOUND", { data: { id: noteId } });
        }, {
          tags: { readOnly: true },
          input: z.object({ noteId: z.string() }),
          errors: {
            NOTE_NOT_FOUND: {
              status: 404,
              message: "There is no such note",
              data: z.object({ id: z.string() }),
            },
            NOTE_LOCKED: { status: 423 },
          },
        }),
      }),
    },
  }),
});

const context: ContextFunction<RequestContextSource> = ({ request }) => {
  if (request.headers.get("x-tenant") === "banned") {
    throw new HttpError(403, "This tenant is banned");
  }
  return { tenant: request.headers.get("x-tenant") ?? "acme" };
};

function post(base: string, path: string, headers: Record<string, string> = {}, body = {}) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

Deno.test("auth over HTTP: 401 with WWW-Authenticate, 403 as problem+json, the user and context in the handler", async () => {
  await withServer(createFetch(tree, { context }), async (base) => {
    const none = await post(base, "/notes/add", {}, { text: "hi" });
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="api"');
    assert.equal(none.headers.get("content-type"), "application/problem+json");
    assert.equal((await none.json()).status, 401);
    const wrong = await post(base, "/notes/add", { authorization: "Bearer nope" }, { text: "hi" });
    assert.equal(wrong.status, 401);
    assert.equal(
      wrong.headers.get("www-authenticate"),
      'Bearer realm="api", error="invalid_token"',
    );
    await wrong.body?.cancel();
    // The guard answers before validation: no schema detail for a stranger.
    const early = await post(base, "/notes/add", {}, { text: "" });
    assert.equal(early.status, 401);
    await early.body?.cancel();
    order.length = 0;
    const ok = await post(base, "/notes/add", { authorization: "Bearer t-bob", "x-tenant": "t1" }, {
      text: "hi",
    });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get("location"), "/notes/n1");
    assert.equal(ok.headers.get("set-cookie"), "last=n%201; Path=/; HttpOnly");
    assert.deepEqual(await ok.json(), { id: "n1", text: "hi", by: "Bob", tenant: "t1" });
    assert.deepEqual(order, ["traced", "handler"]);
    const forbidden = await post(base, "/notes/wipe", { authorization: "Bearer t-bob" });
    assert.equal(forbidden.status, 403);
    assert.equal((await forbidden.json()).title, "Forbidden");
    assert.equal((await post(base, "/notes/wipe", { authorization: "Bearer t-ann" })).status, 204);
    const banned = await post(base, "/notes/add", {
      authorization: "Bearer t-ann",
      "x-tenant": "banned",
    }, {
      text: "hi",
    });
    assert.equal(banned.status, 403);
    assert.equal((await banned.json()).detail, "This tenant is banned");
  });
});

Deno.test("auth over HTTP: API keys in a header, sessions in a cookie", async () => {
  await withServer(createFetch(tree), async (base) => {
    const noKey = await post(base, "/notes/service");
    assert.equal(noKey.status, 401);
    assert.equal(noKey.headers.get("www-authenticate"), 'ApiKey header="x-api-key", realm="api"');
    await noKey.body?.cancel();
    assert.equal(await (await post(base, "/notes/service", { "x-api-key": "k1" })).json(), "svc");
    assert.equal((await post(base, "/notes/service", { "x-api-key": "k2" })).status, 401);
    assert.equal(
      await (await post(base, "/notes/mine", { cookie: "a=1; sid=s%201" })).json(),
      "ann",
    );
    const noCookie = await post(base, "/notes/mine", { cookie: "a=1" });
    assert.equal(noCookie.status, 401);
    await noCookie.body?.cancel();
  });
});

Deno.test("a context function that crashes is a 500 reported to onError, with nothing internal sent", async () => {
  const reported: unknown[] = [];
  const handler = createFetch(tree, {
    context: () => {
      throw new Error("database down: password=x");
    },
    onError: (error) => reported.push(error),
  });
  await withServer(handler, async (base) => {
    const response = await post(base, "/notes/queue");
    assert.equal(response.status, 500);
    assert.ok(!(await response.text()).includes("password"));
    assert.equal(reported.length, 1);
  });
});

Deno.test("declared status and errors over HTTP: 202, and a problem with code and data", async () => {
  await withServer(createFetch(tree), async (base) => {
    const queued = await post(base, "/notes/queue");
    assert.equal(queued.status, 202);
    assert.deepEqual(await queued.json(), { queued: true });
    const missing = await fetch(`${base}/notes/9`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "There is no such note",
      code: "NOTE_NOT_FOUND",
      data: { id: "9" },
    });
  });
});

Deno.test("OpenAPI: security schemes, per-operation security, 201 with Location, 202, 401/403 and declared errors", async () => {
  const doc = await toOpenApi(tree);
  assert.deepEqual(doc.components.securitySchemes, {
    bearerAuth: { type: "http", scheme: "bearer" },
    apiKeyAuth: { type: "apiKey", in: "header", name: "x-api-key" },
    cookieAuth: { type: "apiKey", in: "cookie", name: "sid" },
  });
  const add = doc.paths["/notes/add"].post;
  assert.deepEqual(add.security, [{ bearerAuth: [] }]);
  const responses = add.responses as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(responses), [
    "201",
    "400",
    "401",
    "403",
    "413",
    "415",
    "422",
    "500",
  ]);
  assert.deepEqual(responses["201"].headers, {
    location: { description: "The new note", schema: { type: "string" } },
  });
  assert.ok((responses["401"].headers as Record<string, unknown>)["WWW-Authenticate"]);
  assert.ok(Object.hasOwn(doc.paths["/notes/queue"].post.responses, "202"));
  assert.equal(doc.paths["/notes/queue"].post.security, undefined);
  const read = doc.paths["/notes/{noteId}"].get.responses as Record<
    string,
    Record<string, unknown>
  >;
  assert.match(String(read["404"].description), /NOTE_NOT_FOUND: There is no such note/);
  assert.match(String(read["423"].description), /NOTE_LOCKED/);
  const schema = JSON.stringify(read["404"].content);
  assert.match(schema, /"const":"NOTE_NOT_FOUND"/);
  assert.match(schema, /"data"/);
});

type ReadLeaf = NonNullable<typeof tree.children.notes.fallback>["subtree"]["children"]["read"];

/** Each member of the union narrows by its code. */
function explain(error: ClientErrorOf<ReadLeaf>): string {
  switch (error.code) {
    case "NOTE_NOT_FOUND":
      return error.data.id;
    case "NOTE_LOCKED":
      // @ts-expect-error NOTE_LOCKED declares no data
      return error.data.id;
    // @ts-expect-error no such code is declared
    case "NOTE_GONE":
      return "";
    default:
      return error.message;
  }
}

Deno.test("typed client: a token or a header function, and declared errors that narrow by code", async () => {
  await withServer(createFetch(tree, { context }), async (base) => {
    const anonymous = createClient(tree, { baseUrl: base });
    const refused = await anonymous.notes.add({ text: "hi" }).catch((e) => e);
    assert.ok(
      refused instanceof ClientError && refused.status === 401 && refused.code === undefined,
    );
    const ann = createClient(tree, { baseUrl: base, token: "t-ann" });
    const note = await ann.notes.add({ text: "hi" });
    assert.equal(note.by, "Ann");
    let calls = 0;
    const rotating = createClient(tree, {
      baseUrl: base,
      token: () => (++calls, "t-bob"),
      headers: async () => await Promise.resolve({ "x-tenant": "t9" }),
    });
    assert.equal((await rotating.notes.add({ text: "x" })).tenant, "t9");
    assert.equal(calls, 1);

    const { error, value } = await safe(ann.notes.noteId("9").read());
    assert.equal(value, undefined);
    assert.ok(error !== undefined);
    if (error.code === "NOTE_NOT_FOUND") {
      const id: string = error.data.id;
      assert.equal(id, "9");
    } else {
      assert.fail("the declared code narrows");
    }
    // The union of a leaf without declarations has only the undeclared member.
    const other = refused as ClientErrorOf<typeof tree.children.notes.children.queue>;
    const code: undefined = other.code;
    assert.equal(code, undefined);
    assert.equal(explain(error), "9");
  });
});
