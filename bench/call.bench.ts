/**
 * The cost of one call through the HTTP surface, in process: a fresh `Request`
 * into `createFetch`'s handler, the response body read in full. Routes cover a
 * leaf with no schema (which must pay nothing for the call path), a leaf whose
 * input is validated, and a leaf whose output schema shapes the result. Each is
 * compared with a hand-written fetch handler doing the same work, and the call
 * path alone (`createCall`) with calling the handler directly.
 *
 * Run with `deno task bench` or `deno bench --allow-read --allow-env bench/call.bench.ts`.
 *
 * @module
 */

import { z } from "zod";
import { api, createFetch, http, op } from "@ramify/api";
import { createCall } from "@ramify/api/tree/catalogue";

const User = z.object({ id: z.string(), name: z.string(), email: z.string() });
const NewBook = z.object({ title: z.string().min(1), year: z.number().int() });
const stored = { id: "7", name: "Ann", email: "ann@example.com", passwordHash: "x" };

const tree = api({
  hello: op(() => ({ hello: "world" }), http.get),
  books: api({
    add: op(({ title, year }) => ({ id: "1", title, year }), { input: NewBook }),
  }),
  users: api({ me: op(() => stored, http.get, { output: User }) }),
});
const handle = createFetch(tree, { openapi: false });

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });
const bare = async (request: Request): Promise<Response> => {
  const { pathname } = new URL(request.url);
  if (pathname === "/hello") return json({ hello: "world" });
  if (pathname === "/books/add") {
    const parsed = NewBook.safeParse(await request.json());
    if (!parsed.success) return new Response(null, { status: 422 });
    return json({ id: "1", ...parsed.data });
  }
  if (pathname === "/users/me") return json(User.parse(stored));
  return new Response(null, { status: 404 });
};

const body = JSON.stringify({ title: "Dune", year: 1965 });
const requests = {
  hello: () => new Request("http://localhost/hello"),
  add: () =>
    new Request("http://localhost/books/add", {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    }),
  me: () => new Request("http://localhost/users/me"),
};

// Both handlers must answer alike, or the comparison means nothing.
for (const [name, make] of Object.entries(requests)) {
  const [ours, theirs] = await Promise.all([
    handle(make()).then((r) => r.text()),
    bare(make()).then((r) => r.text()),
  ]);
  if (ours !== theirs) throw new Error(`${name}: ${ours} !== ${theirs}`);
}

for (const [name, make] of Object.entries(requests)) {
  Deno.bench({ name: `ramify ${name}`, group: name, baseline: true }, async () => {
    await (await handle(make())).text();
  });
  Deno.bench({ name: `hand-written ${name}`, group: name }, async () => {
    await (await bare(make())).text();
  });
}

// The call path alone, against calling the handler (and the schema) by hand.
const context = {};
const hello = tree.children.hello;
const add = tree.children.books.children.add;
const me = tree.children.users.children.me;
const calls = { hello: createCall(hello), add: createCall(add), me: createCall(me) };
const addInput = { title: "Dune", year: 1965 };
Deno.bench(
  { name: "createCall, no schema", group: "call: no schema", baseline: true },
  async () => {
    await calls.hello({}, context);
  },
);
Deno.bench({ name: "handler by hand", group: "call: no schema" }, async () => {
  await hello.handler({}, context);
});
Deno.bench({ name: "createCall, input schema", group: "call: input", baseline: true }, async () => {
  await calls.add(addInput, context);
});
Deno.bench({ name: "safeParse + handler by hand", group: "call: input" }, async () => {
  await add.handler(NewBook.parse(addInput), context);
});
Deno.bench(
  { name: "createCall, output schema", group: "call: output", baseline: true },
  async () => {
    await calls.me({}, context);
  },
);
Deno.bench({ name: "handler + parse by hand", group: "call: output" }, async () => {
  User.parse(await me.handler({}, context));
});
