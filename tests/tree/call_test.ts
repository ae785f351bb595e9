// The one call path every surface shares: input checked, handler run with its
// context, result shaped by the output schema (per item for streams).
import assert from "node:assert/strict";
import { failure, unhandledDuring } from "../support/outcomes.ts";
import { z } from "zod";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { op } from "@ramify/api/tree";
import { createCall, InputError, OutputError } from "@ramify/api/tree/catalogue";

const User = z.object({ id: z.string(), name: z.string() });

Deno.test("createCall: a leaf without an input schema takes the merged input as sent", async () => {
  const seen: unknown[] = [];
  const leaf = op((input: unknown) => void seen.push(input));
  await createCall(leaf)({ title: "Dune" }, {});
  await createCall(leaf, { captures: ["bookId"] })({ bookId: "9", title: "Dune" }, {});
  await createCall(leaf)(undefined, {});
  // An own `__proto__` key (as JSON.parse makes one) stays a key.
  const parsed = JSON.parse('{"bookId":"9","__proto__":{"x":1}}');
  await createCall(leaf, { captures: ["bookId"] })(parsed, {});
  assert.deepEqual(seen.slice(0, 3), [{ title: "Dune" }, { bookId: "9", title: "Dune" }, {}]);
  assert.equal(seen[3], parsed);
  assert.equal(Object.getPrototypeOf(seen[3]), Object.prototype);
  // Not an object: the caller's fault, before the handler runs.
  const error = await failure(() => createCall(leaf)("not an object", {}));
  assert.ok(error instanceof InputError);
  assert.equal(seen.length, 4);
  // A value given at once stays synchronous: no promise, no tick.
  assert.equal(createCall(op(() => "pong"), { replies: "keep" })({}, {}), "pong");
});

Deno.test("createCall: a result holding a promise is a fault naming where, and its rejection is handled", async () => {
  const unhandled = await unhandledDuring(async () => {
    const lazy = op(() => ({
      id: "1",
      author: Promise.reject(new Error("lazy")),
      reviews: [{ by: Promise.reject(new Error("lazier")) }],
    }));
    const error = await failure(() => createCall(lazy)({}, {}));
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /at author; await it/);
    const later = op(() => Promise.resolve([{ at: Promise.resolve(1) }]));
    assert.match(String(await failure(() => createCall(later)({}, {}))), /at 0\.at/);
    const thenable = op(() => ({ query: { then: () => {} } }));
    assert.match(String(await failure(() => createCall(thenable)({}, {}))), /at query/);
    const stream = op(async function* () {
      yield { ok: true };
      yield { late: Promise.reject(new Error("in a stream")) };
    }, { tags: { streaming: true } });
    const items: unknown[] = [];
    const failed = await failure(async () => {
      for await (const item of await createCall(stream)({}, {}) as AsyncIterable<unknown>) {
        items.push(item);
      }
    });
    assert.deepEqual(items, [{ ok: true }]);
    assert.match(String(failed), /at late/);
    // Data that merely looks deep, or holds no promise, passes untouched.
    const plain = { a: [1, { b: new Date(0) }], c: null };
    assert.equal(await createCall(op(() => plain))({}, {}), plain);
  });
  assert.deepEqual(unhandled, []);
});

Deno.test("createCall: the result is the output schema's parsed value, unknown keys stripped", async () => {
  const me = op(() => ({ id: "7", name: "Ann", passwordHash: "x" }), { output: User });
  assert.deepEqual(await createCall(me)({}, {}), { id: "7", name: "Ann" });
  const later = op(() => Promise.resolve({ id: "7", name: "Ann", token: "t" }), {
    output: User,
  });
  assert.deepEqual(await createCall(later)({}, {}), { id: "7", name: "Ann" });
  const coerced = op(() => "2024-01-02", { output: z.string().transform((s) => s.length) });
  assert.equal(await createCall(coerced)({}, {}), 10);
});

Deno.test("createCall: a result that breaks its output schema is an OutputError, never the value", async () => {
  const wrong = op(() => ({ id: 1 }) as unknown as z.input<typeof User>, { output: User });
  const error = await failure(() => createCall(wrong)({}, {}));
  assert.ok(error instanceof OutputError);
  assert.deepEqual(error.issues.map((issue: { path: unknown }) => issue.path), [["id"], ["name"]]);
  assert.ok(!(error instanceof InputError));
  const nothing = op(() => undefined as unknown as z.input<typeof User>, { output: User });
  assert.ok(
    await failure(() => createCall(nothing)({}, {})) instanceof OutputError,
  );
});

Deno.test("createCall: input is validated before the handler runs; its issues name the keys", async () => {
  let ran = 0;
  const add = op(({ title }) => {
    ran++;
    return title;
  }, { input: z.object({ title: z.string().min(1) }) });
  const call = createCall(add);
  const error = await failure(() => call({ title: "" }, {}));
  assert.ok(error instanceof InputError);
  assert.deepEqual(error.issues[0].path, ["title"]);
  assert.equal(ran, 0);
  assert.equal(await call({ title: "Dune" }, {}), "Dune");
});

Deno.test("createCall: captures reach the handler even where the input schema strips them", async () => {
  const read = op((input) => input, { input: z.object({ title: z.string() }) });
  const call = createCall(read, { captures: ["bookId"] });
  assert.deepEqual(await call({ bookId: "7", title: "Dune", extra: 1 }, {}), {
    title: "Dune",
    bookId: "7",
  });
  const named = op((input) => input, { input: z.object({ bookId: z.coerce.number() }) });
  assert.deepEqual(await createCall(named, { captures: ["bookId"] })({ bookId: "7" }, {}), {
    bookId: 7,
  }, "a capture the schema names keeps the schema's value");
});

Deno.test("createCall: the handler gets its context", async () => {
  const who = op((_input: Record<string, never>, context) => String(context.user), {
    output: z.string(),
  });
  assert.equal(await createCall(who)({}, { user: "ann" }), "ann");
});

Deno.test("createCall: streams are checked item by item, and leaving early closes the source", async () => {
  let closed = 0;
  const feed = op(async function* () {
    try {
      yield { id: "1", name: "Ann", secret: "s" };
      yield { id: "2", name: "Bob" };
      yield { id: "3", name: "Cy" };
    } finally {
      closed++;
    }
  }, { tags: { streaming: true }, output: User });
  const items: unknown[] = [];
  for await (const item of await createCall(feed)({}, {}) as AsyncIterable<unknown>) {
    items.push(item);
    if (items.length === 2) break;
  }
  assert.deepEqual(items, [{ id: "1", name: "Ann" }, { id: "2", name: "Bob" }]);
  assert.equal(closed, 1);
});

Deno.test("createCall: a stream item that breaks the output schema ends the stream with an OutputError", async () => {
  let closed = 0;
  const feed = op(async function* () {
    try {
      yield { id: "1", name: "Ann" };
      yield { id: 2 } as unknown as z.input<typeof User>;
      yield { id: "3", name: "Cy" };
    } finally {
      closed++;
    }
  }, { tags: { streaming: true }, output: User });
  const items: unknown[] = [];
  const error = await (async () => {
    for await (const item of await createCall(feed)({}, {}) as AsyncIterable<unknown>) {
      items.push(item);
    }
  })().catch((e) => e);
  assert.ok(error instanceof OutputError);
  assert.deepEqual(items, [{ id: "1", name: "Ann" }]);
  assert.equal(closed, 1, "the source is closed when an item fails");
});

Deno.test("createCall: a returned Response passes through unchecked", async () => {
  const raw = op(() => new Response("hi") as unknown as z.input<typeof User>, { output: User });
  const result = await createCall(raw)({}, {});
  assert.ok(result instanceof Response);
});

Deno.test("createCall: asynchronous schemas work on both sides", async () => {
  const asyncSchema = <T>(check: (value: unknown) => value is T): StandardSchemaV1<T, T> => ({
    "~standard": {
      version: 1,
      vendor: "test",
      validate: (value) =>
        Promise.resolve(check(value) ? { value } : { issues: [{ message: "nope", path: [] }] }),
    },
  });
  const isObject = (v: unknown): v is { n: number } => typeof v === "object" && v !== null;
  const isNumber = (v: unknown): v is number => typeof v === "number";
  const double = op(({ n }) => n * 2, {
    input: asyncSchema(isObject),
    output: asyncSchema(isNumber),
  });
  assert.equal(await createCall(double)({ n: 2 }, {}), 4);
  const wrong = op(({ n }) => String(n) as unknown as number, {
    input: asyncSchema(isObject),
    output: asyncSchema(isNumber),
  });
  assert.ok(
    await failure(() => createCall(wrong)({ n: 2 }, {})) instanceof OutputError,
  );
});

Deno.test("createCall: a node without a handler is refused", () => {
  assert.throws(() => createCall({ children: {} }), /no handler/);
});

Deno.test("createCall: an object literal that is a stream has its items checked for promises too", async () => {
  const unhandled = await unhandledDuring(async () => {
    const literal = op(() => ({
      async *[Symbol.asyncIterator]() {
        yield { late: Promise.reject(new Error("in a literal stream")) };
      },
    }), { tags: { streaming: true } });
    const failed = await failure(async () => {
      for await (const _item of await createCall(literal)({}, {}) as AsyncIterable<unknown>) {
        // The item fails before it is given.
      }
    });
    assert.match(String(failed), /at late; await it/);
  });
  assert.deepEqual(unhandled, []);
});
