// Contract-first: a tree of op.contract() leaves projects like the implemented
// tree on every describing surface, types its clients, refuses to be served,
// and implement() checks its handlers (types and run time); a browser bundle of
// the contract holds no handler code.
import assert from "node:assert/strict";
import { api, implement, mock, op } from "@ramify/api/tree";
import { createCall, isContractLeaf, OutputError } from "@ramify/api/tree/catalogue";
import { createClient, createFetch, toClientManifest, toOpenApi } from "@ramify/api/http";
import { createGraphQLServer, toGraphQLClientManifest, toSDL } from "@ramify/api/graphql";
import { createMcpHandler, toTools } from "@ramify/api/tools";
import { createHandler } from "@ramify/api/serve";
import { runCli } from "@ramify/api/cli";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";
import { books } from "./_books_contract.ts";
import { booksTree, HANDLER_MARKER } from "./_books_impl.ts";
import { memoryIo } from "../support/cli_io.ts";
import { bundle } from "../support/bundle.ts";

Deno.test("contract: every describing projection equals the implemented tree's", async () => {
  const tree = booksTree();
  assert.deepEqual(await toOpenApi(books), await toOpenApi(tree));
  assert.deepEqual(toSDL(books), toSDL(tree));
  assert.deepEqual(toTools(books), toTools(tree));
  assert.deepEqual(toClientManifest(books), toClientManifest(tree));
  assert.deepEqual(toGraphQLClientManifest(books), toGraphQLClientManifest(tree));
  const help = async (node: typeof books | typeof tree, argv: string[]) => {
    const io = memoryIo();
    const code = await runCli(node, argv, { io, name: "books" });
    return { code, out: io.stdout.join(""), err: io.stderr.join("") };
  };
  for (const argv of [["--help"], ["add", "--help"]]) {
    const described = await help(books, argv);
    assert.deepEqual(described, await help(tree, argv));
    assert.match(described.out + described.err, /add/);
  }
});

Deno.test("contract: implement() builds the tree op(handler, meta) and api() would", () => {
  const list = () => [];
  const add = ({ title }: { title: string }) => ({ id: "1", title });
  const read = ({ bookId }: { bookId: string }) => ({ id: bookId, title: "Dune" });
  const built = implement(books, { list, add, bookId: { read } });
  const { children, fallback } = books;
  assert.ok(fallback !== undefined);
  const expected = api({
    list: op(list, children.list.meta),
    add: op(add, children.add.meta),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({ read: op(read, fallback.subtree.children.read.meta) }),
    },
  });
  assert.deepEqual(built, expected);
  assert.ok(Object.isFrozen(built.children.add));
  assert.ok(isContractLeaf(books.children.add));
  assert.ok(!isContractLeaf(built.children.add));
});

Deno.test("contract: a contract leaf's placeholder refuses to run", async () => {
  const call = createCall(books.children.list);
  await assert.rejects(async () => await call({}, {}), (error: unknown) => {
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /implement\(contract, handlers\)/);
    return true;
  });
});

Deno.test("contract: every server refuses an unimplemented contract, naming the leaf", async () => {
  const named = (place: string, leaf: string) => (error: unknown) => {
    assert.ok(error instanceof TypeError);
    assert.equal(
      error.message,
      `${place}: the leaf ${leaf} is a contract without a handler; serve implement(contract, handlers) instead`,
    );
    return true;
  };
  assert.throws(() => createFetch(books), named("createFetch", "list"));
  assert.throws(() => createGraphQLServer(books), named("createGraphQLServer", "list"));
  assert.throws(() => createMcpHandler(books), named("createMcpHandler", "list"));
  await assert.rejects(createHandler(books), named("createHandler", "list"));
  // One leaf left unimplemented is enough; it is named by its place.
  const half = api({ ping: op(() => "pong"), books: api({}, { fallback: books.fallback }) });
  assert.throws(() => createFetch(half), named("createFetch", "books/{bookId}/read"));
});

Deno.test("contract: implement() checks at run time what the types check", () => {
  const fails = (handlers: unknown, message: string) =>
    assert.throws(
      () => implement(books, handlers as Parameters<typeof implement<typeof books>>[1]),
      { name: "TypeError", message },
    );
  const list = () => [];
  const add = ({ title }: { title: string }) => ({ id: "1", title });
  const read = ({ bookId }: { bookId: string }) => ({ id: bookId, title: "Dune" });
  fails(
    { list, add },
    "implement(): the leaf {bookId}/read needs a handler function, got undefined",
  );
  fails(
    { list, add, bookId: read },
    "implement(): the handlers of {bookId} must be an object, got a function",
  );
  fails(
    { list, add: "add", bookId: { read } },
    "implement(): the leaf add needs a handler function, got a string",
  );
  fails({ list, add, remove: add, bookId: { read } }, "implement(): remove is not in the contract");
  fails(
    { list, add, bookId: { read, write: read } },
    "implement(): {bookId}/write is not in the contract",
  );
  const mixed = api({ ping: op(() => "pong"), add: books.children.add });
  assert.throws(() => implement(mixed, { add, ping: add } as never), {
    name: "TypeError",
    message: "implement(): ping is implemented already; give it no handler",
  });
  assert.equal(implement(mixed, { add }).children.ping, mixed.children.ping);
});

// Never run: what `deno check` refuses.
export function typeErrors() {
  const list = () => [];
  const add = ({ title }: { title: string }) => ({ id: "1", title });
  const read = ({ bookId }: { bookId: string }) => ({ id: bookId, title: "Dune" });
  implement(books, { list, add, bookId: { read } });
  // @ts-expect-error a missing leaf
  implement(books, { list, add });
  // @ts-expect-error a missing leaf under the fallback
  implement(books, { list, add, bookId: {} });
  const numeric = ({ title }: { title: number }) => ({ id: "1", title: String(title) });
  // @ts-expect-error the wrong input: title is a string
  implement(books, { list, add: numeric, bookId: { read } });
  // @ts-expect-error the wrong output: id must be a string
  implement(books, { list, add: ({ title }) => ({ id: 1, title }), bookId: { read } });
  // @ts-expect-error a leaf the contract does not have
  implement(books, { list, add, remove: add, bookId: { read } });
  // The input is typed from the schema: title is a string here.
  implement(books, {
    list,
    add: ({ title }) => ({ id: "1", title: title.toUpperCase() }),
    bookId: { read: ({ bookId }) => Promise.resolve({ id: bookId, title: "Dune" }) },
  });
  const mixed = api({ ping: op(() => "pong"), add: books.children.add });
  implement(mixed, { add });
  // @ts-expect-error an implemented leaf takes no handler
  implement(mixed, { add, ping: () => "pong" });
  // The contract leaf's types come from its schemas.
  const count = op.contract({ output: z.number() });
  implement(api({ count }), { count: () => 3 });
  // @ts-expect-error a string is no number
  implement(api({ count }), { count: () => "3" });
  op.contract(http.get, { output: z.number() });
}

Deno.test("contract: the typed client over the contract calls the implemented server", async () => {
  const server = Deno.serve({ port: 0, onListen() {} }, createFetch(booksTree()));
  try {
    const client = createClient(books, { baseUrl: `http://127.0.0.1:${server.addr.port}` });
    const added: { id: string; title: string } = await client.add({ title: "Dune" });
    assert.deepEqual(added, { id: "1", title: "Dune" });
    assert.deepEqual(await client.list(), [added]);
    assert.deepEqual(await client.bookId("1").read(), added);
    await assert.rejects(client.add({ title: "Dune" }), { code: "TAKEN", status: 409 });
    // @ts-expect-error title is a string in the contract
    await assert.rejects(client.add({ title: 1 }), { status: 422 });
    // The command line over the contract calls the server too.
    const io = memoryIo();
    const baseUrl = `http://127.0.0.1:${server.addr.port}`;
    assert.equal(await runCli(books, ["list", "--json"], { io, baseUrl }), 0, io.stderr.join(""));
    assert.deepEqual(JSON.parse(io.stdout.join("")), [added]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("contract: a browser bundle of the contract and its client holds no handler code", async () => {
  const code = await bundle(new URL("./_books_browser.ts", import.meta.url).pathname);
  assert.ok(code.includes("Lists the books of the contract"), "the contract is in the bundle");
  assert.ok(!code.includes(HANDLER_MARKER), "no handler code");
  for (const server of ["createFetch:", "createGraphQLServer", "createMcpHandler"]) {
    assert.ok(!code.includes(server), `no server code (${server})`);
  }
});

Deno.test("contract: mock() answers every leaf from its output schema, over the network", async () => {
  const server = Deno.serve({ port: 0, onListen() {} }, createFetch(mock(books)));
  try {
    const client = createClient(books, { baseUrl: `http://127.0.0.1:${server.addr.port}` });
    const book = { id: "string", title: "string" };
    assert.deepEqual(await client.list(), [book]);
    assert.deepEqual(await client.add({ title: "Dune" }), book);
    assert.deepEqual(await client.bookId("7").read(), book);
    // The input schema still judges what callers send.
    await assert.rejects(client.add({ title: "" }), { status: 422 });
  } finally {
    await server.shutdown();
  }
});

Deno.test("contract: a mock's answers pass their output schemas", async () => {
  type Node = { name: string; children?: Node[] };
  const Tree: z.ZodType<Node> = z.lazy(() =>
    z.object({ name: z.string(), children: z.array(Tree).optional() })
  );
  const Order = z.object({
    id: z.uuid(),
    email: z.email(),
    placed: z.date(),
    status: z.enum(["open", "shipped"]),
    kind: z.literal("order"),
    count: z.number().int().gt(3).lte(10),
    price: z.number().multipleOf(0.25).min(1.1),
    code: z.string().min(8).max(10),
    note: z.string().nullable(),
    tags: z.array(z.string()).min(2),
    size: z.string().default("M"),
    shape: z.union([z.object({ round: z.boolean() }), z.null()]),
    tree: Tree,
  });
  const contract = api({
    order: op.contract({ output: Order }),
    nothing: op.contract({}),
    patterned: op.contract({ output: z.string().regex(/^x\d+$/) }),
    kept: op(() => "kept"),
  });
  const mocked = mock(contract);
  const order = await createCall(mocked.children.order)({}, {}) as z.infer<typeof Order>;
  assert.ok(order.placed instanceof Date);
  assert.equal(order.status, "open");
  assert.equal(order.kind, "order");
  assert.equal(order.count, 4);
  assert.equal(order.price, 1.25);
  assert.equal(order.code.length, 8);
  assert.equal(order.tags.length, 2);
  assert.equal(order.size, "M");
  assert.deepEqual(order.shape, { round: true });
  assert.equal(order.tree.name, "string");
  assert.equal(await createCall(mocked.children.nothing)({}, {}), undefined);
  assert.equal(mocked.children.kept, contract.children.kept);
  // A pattern is not solved: the output schema refuses the value, as the server would.
  await assert.rejects(
    async () => await createCall(mocked.children.patterned)({}, {}),
    OutputError,
  );
  // Each call gets its own value.
  const again = await createCall(mocked.children.order)({}, {}) as z.infer<typeof Order>;
  assert.notEqual(again.tags, order.tags);
});
