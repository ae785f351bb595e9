// Middleware, declared errors and reply() in the one call path: order,
// short-circuits, context values, the subtree transform, and the checks made
// when a tree is built.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  api,
  atLeaf,
  LeafError,
  type Middleware,
  op,
  Reply,
  reply,
  use,
  useAll,
} from "@ramify/api/tree";
import { createCall, OutputError } from "@ramify/api/tree/catalogue";
import type { HandlerContext } from "@ramify/api/tree/node";

function recorder(log: string[], name: string): Middleware {
  return async (_call, next) => {
    log.push(`${name} before`);
    const result = await next();
    log.push(`${name} after`);
    return result;
  };
}

Deno.test("middleware: runs outermost first around the handler, useAll's before the leaf's own", async () => {
  const log: string[] = [];
  const leaf = op(
    () => {
      log.push("handler");
      return 1;
    },
    use(recorder(log, "a")),
    use(recorder(log, "b")),
  );
  const tree = useAll(api({ leaf }), recorder(log, "outer"));
  assert.equal(await createCall(tree.children.leaf)({}, {}), 1);
  assert.deepEqual(log, [
    "outer before",
    "a before",
    "b before",
    "handler",
    "b after",
    "a after",
    "outer after",
  ]);
  // The transform is explicit: the original tree is untouched, branches get nothing.
  assert.equal(leaf.meta.use?.length, 2);
  assert.equal(tree.meta, undefined);
});

Deno.test("middleware: a short-circuit stops the chain, with an error or a value checked by the output schema", async () => {
  let ran = false;
  const handler = () => {
    ran = true;
    return { id: "1" };
  };
  const refuse: Middleware = () => {
    throw new Error("no");
  };
  await assert.rejects(async () => await createCall(op(handler, use(refuse)))({}, {}), /no/);
  const cached: Middleware = () => ({ id: "cached", secret: "x" });
  const output = z.object({ id: z.string() });
  assert.deepEqual(await createCall(op(handler, { output }, use(cached)))({}, {}), {
    id: "cached",
  });
  const wrong: Middleware = () => ({ id: 7 });
  await assert.rejects(
    async () => await createCall(op(handler, { output }, use(wrong)))({}, {}),
    OutputError,
  );
  assert.equal(ran, false);
});

Deno.test("middleware: next() adds typed values to a copy of the context; calling it twice fails", async () => {
  const user: Middleware<{ user: { id: string } }> = (_call, next) => next({ user: { id: "7" } });
  const seen: unknown[] = [];
  const leaf = op((_input, ctx) => {
    seen.push(ctx.user.id, ctx.request?.url, ctx.extra);
    return "ok";
  }, use(user));
  const base = { request: new Request("http://localhost/x"), extra: 1 };
  await createCall(leaf)({}, base);
  assert.deepEqual(seen, ["7", "http://localhost/x", 1]);
  assert.equal(
    (base as Record<string, unknown>).user,
    undefined,
    "the caller's context is not changed",
  );
  // @ts-expect-error without the middleware the context has no typed `user`
  op((_input, ctx) => ctx.user.id);
  const twice: Middleware = async (_call, next) => {
    await next();
    return await next();
  };
  await assert.rejects(async () => await createCall(op(() => 1, use(twice)))({}, {}), /twice/);
});

Deno.test("middleware: sees the raw input before the input schema, so a guard answers before validation", async () => {
  const inputs: unknown[] = [];
  const guard: Middleware = (call) => {
    inputs.push(call.input);
    throw new Error("refused");
  };
  const leaf = op(({ n }) => n, { input: z.object({ n: z.number() }) }, use(guard));
  await assert.rejects(async () => await createCall(leaf)({ n: "not a number" }, {}), /refused/);
  assert.deepEqual(inputs, [{ n: "not a number" }]);
});

Deno.test("middleware: a handler can declare what a subtree transform adds", async () => {
  const user: Middleware<{ user: string }> = (_call, next) => next({ user: "ann" });
  const tree = useAll(
    api({
      me: op((_input: Record<string, never>, ctx: HandlerContext & { user: string }) => ctx.user),
    }),
    user,
  );
  assert.equal(await createCall(tree.children.me)({}, {}), "ann");
});

Deno.test("declared errors: matched with meta.errors, their data checked; undeclared codes are faults", async () => {
  const errors = {
    NOT_FOUND: { status: 404, message: "No such book", data: z.object({ id: z.string() }) },
    GONE: { status: 410 },
  };
  const read = op(({ id }: { id: string }) => {
    if (id === "gone") throw new LeafError("GONE");
    if (id === "bad") throw new LeafError("NOT_FOUND", { data: { id: 9 } });
    if (id === "odd") throw new LeafError("ODD");
    throw new LeafError("NOT_FOUND", { data: { id, extra: true } });
  }, { errors, input: z.object({ id: z.string() }) });
  const failure = async (id: string): Promise<LeafError> =>
    await Promise.resolve(createCall(read)({ id }, {})).then(
      () => assert.fail("resolved"),
      (e) => e,
    );
  const missing = await failure("9");
  assert.ok(missing instanceof LeafError);
  assert.deepEqual([missing.status, missing.code, missing.message, missing.data], [
    404,
    "NOT_FOUND",
    "No such book",
    { id: "9" },
  ]);
  assert.deepEqual([(await failure("gone")).status, (await failure("gone")).message], [
    410,
    "GONE",
  ]);
  for (const id of ["bad", "odd"]) {
    const fault = await failure(id);
    assert.ok(!(fault instanceof LeafError), `${id} is a server fault`);
  }
  // A leaf without declarations: the error stays without a status (masked by every surface).
  const bare = await (async () =>
    await createCall(op(() => {
      throw new LeafError("X");
    }))({}, {}))().catch((e) => e as LeafError);
  assert.equal((bare as LeafError).status, undefined);
});

Deno.test("declared errors: a stream's failure is matched too", async () => {
  const feed = op(async function* () {
    yield 1;
    throw new LeafError("STOPPED");
  }, { tags: { streaming: true }, errors: { STOPPED: { status: 409 } } });
  const items: unknown[] = [];
  const stream = await createCall(feed)({}, {}) as AsyncIterable<unknown>;
  const error = await (async () => {
    for await (const item of stream) items.push(item);
  })().catch((e) => e);
  assert.deepEqual(items, [1]);
  assert.equal(error.status, 409);
});

Deno.test("meta.errors and use are checked when the leaf is built", () => {
  const bad: [unknown, RegExp][] = [
    [{ errors: { "no spaces": { status: 404 } } }, /not a code/],
    [{ errors: { X: { status: 200 } } }, /400 to 599/],
    [{ errors: { X: { status: 404, data: {} } } }, /Standard Schema/],
    [{ errors: [] }, /meta.errors must be an object/],
    [{ use: [1] }, /meta.use/],
  ];
  for (const [meta, message] of bad) {
    assert.throws(() => op(() => 1, meta as never), message);
  }
  assert.throws(() => use(1 as never), /must be a function/);
});

Deno.test("reply(): the value is checked by the output schema; HTTP keeps the settings, other callers get the value", async () => {
  const Book = z.object({ id: z.string() });
  const add = op(
    () => reply({ id: "1", secret: "x" }, { status: 201, headers: { Location: "/b/1" } }),
    {
      output: Book,
    },
  );
  assert.deepEqual(await createCall(add)({}, {}), { id: "1" });
  const kept = await createCall(add, { replies: "keep" })({}, {});
  assert.ok(kept instanceof Reply);
  assert.deepEqual([kept.value, kept.status, kept.headers], [{ id: "1" }, 201, [[
    "location",
    "/b/1",
  ]]]);
  const wrong = op(() => reply({ id: 1 } as unknown as { id: string }), { output: Book });
  await assert.rejects(async () => await createCall(wrong)({}, {}), OutputError);
});

Deno.test("reply(): bad settings fail where they are made, naming the problem", () => {
  assert.throws(() => reply(1, { status: 404 }), /200 to 299/);
  assert.throws(() => reply(1, { status: 204 }), /no body/);
  assert.throws(() => reply(1, { headers: { "bad name": "x" } }), /not a header name/);
  assert.throws(() => reply(1, { headers: { "x-a": "one\r\nset-cookie: evil=1" } }), /one line/);
  assert.throws(() => reply(1, { headers: { "content-type": "text/html" } }), /set by the server/);
  assert.throws(() => reply(1, { cookies: [{ name: "a;b", value: "x" }] }), /cookie name/);
  assert.throws(() => reply(1, { cookies: [{ name: "a", value: "x", path: "/;evil" }] }), /";"/);
  assert.throws(
    () => reply(1, { cookies: [{ name: "a", value: "x", sameSite: "None" }] }),
    /secure/,
  );
});

Deno.test("useAll: a middleware with [atLeaf] is placed on each leaf, told its path; others go as they are", async () => {
  const told: string[] = [];
  const plain: Middleware = (_call, next) => next();
  const place = (path: readonly string[]): Middleware => {
    told.push(path.join("/"));
    return (_call, next) => next({ leaf: path.join("/") });
  };
  const placed = Object.assign(place([]), { [atLeaf]: place });
  told.length = 0;
  const tree = useAll(
    api({
      books: api({ list: op((_input, ctx) => ctx.leaf) }, {
        fallback: { name: "bookId", subtree: api({ read: op((_input, ctx) => ctx.leaf) }) },
      }),
    }),
    placed,
    plain,
  );
  assert.deepEqual(told.sort(), ["books/list", "books/{bookId}/read"]);
  const list = tree.children.books.children.list;
  assert.equal(list.meta?.use?.[1], plain, "an ordinary middleware is put as it is");
  assert.equal(await createCall(list)({}, {}), "books/list");
});
