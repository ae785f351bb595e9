// The agreement suite, part two: a shop with enums, unions, optional and
// nullable fields, nested objects, arrays, dates, captures, HttpError 404/409,
// validation and crashes, one table of calls through every surface and client:
// the call path, the HTTP client, openapi-fetch over the served document, the
// GraphQL client over HTTP and WebSocket, and the generated GraphQL client.
// Each must give the same value (in its JSON form where a client does not
// revive dates) or the same kind of error.
import assert from "node:assert/strict";
import { z } from "zod";
import openapiFetch from "openapi-fetch";
import { createClient as createWsClient } from "graphql-ws";
import { api, createCall, InputError, type Node, op, OutputError } from "@ramify/api/tree";
import { ClientError, createClient, createFetch, http, HttpError } from "@ramify/api/http";
import { httpProjection } from "@ramify/api/http/dx";
import { listOperations } from "@ramify/api/http";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
  httpTransport,
  wsTransport,
} from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { callThrough, leafAt, type Step } from "./support/agreement.ts";

const Status = z.enum(["draft", "live"]);
const Shape = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("circle"), r: z.number() }).meta({ title: "Circle" }),
  z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
]);
const Fields = z.object({
  name: z.string().min(1),
  status: Status,
  note: z.string().optional(),
  parent: z.string().nullable(),
  tags: z.array(z.string()),
  size: z.object({ w: z.number(), h: z.number() }),
  shape: Shape,
  at: z.date(),
});
const Item = Fields.extend({ id: z.string() }).meta({ title: "Item" });
type ItemValue = z.output<typeof Item>;

const SEED: ItemValue[] = [
  {
    id: "1",
    name: "Lamp",
    status: "live",
    note: "bright",
    parent: null,
    tags: ["light"],
    size: { w: 1, h: 2 },
    shape: { kind: "circle", r: 3 },
    at: new Date("2026-01-01T00:00:00.000Z"),
  },
  {
    id: "2",
    name: "Desk",
    status: "draft",
    parent: "1",
    tags: [],
    size: { w: 4, h: 5 },
    shape: { kind: "square", side: 6 },
    at: new Date("2026-02-01T00:00:00.000Z"),
  },
];
let items = new Map<string, ItemValue>();
const reset = () => items = new Map(SEED.map((item) => [item.id, structuredClone(item)]));
const found = (itemId: string) => {
  const item = items.get(itemId);
  if (item === undefined) throw new HttpError(404, `No item ${itemId}`);
  return item;
};

const tree = api({
  items: api({
    list: op(({ status }) => [...items.values()].filter((i) => !status || i.status === status), {
      tags: { readOnly: true },
      input: z.object({ status: Status.optional() }),
      output: z.array(Item),
    }),
    add: op((fields) => {
      if ([...items.values()].some((i) => i.name === fields.name)) {
        throw new HttpError(409, `${fields.name} exists`);
      }
      const item = { ...fields, id: String(items.size + 1) };
      items.set(item.id, item);
      return { ...item, secret: "hidden" };
    }, { input: Fields, output: Item }),
  }, {
    fallback: {
      name: "itemId",
      subtree: api({
        read: op(({ itemId }) => found(itemId), http.get, {
          input: z.object({ itemId: z.string() }),
          output: Item,
        }),
        rename: op(({ itemId, name }) => {
          const item = found(itemId);
          item.name = name;
          return item;
        }, { input: z.object({ itemId: z.string(), name: z.string().min(1) }), output: Item }),
      }),
    },
  }),
  boom: op(
    (): string => {
      throw new Error("secret failure");
    },
    http.get,
    { output: z.string() },
  ),
});

type Kind = "input" | "fault" | "notFound" | "conflict";
type Outcome = { readonly value: unknown } | { readonly error: Kind };
interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly expect: Outcome;
}

const lamp = SEED[0];
const desk = SEED[1];
const fresh = (id: string, fields: Omit<ItemValue, "id">): ItemValue => ({ id, ...fields });
const newItem = (extra: Partial<z.input<typeof Fields>> = {}): Omit<ItemValue, "id"> => ({
  name: "Chair",
  status: "draft",
  parent: null,
  tags: ["wood"],
  size: { w: 1, h: 1 },
  shape: { kind: "square", side: 1 },
  at: new Date("2026-03-01T00:00:00.000Z"),
  ...extra,
} as Omit<ItemValue, "id">);

const CASES: Case[] = [
  { name: "list all", steps: ["items", "list"], expect: { value: [lamp, desk] } },
  {
    name: "list by enum",
    steps: ["items", "list"],
    input: { status: "live" },
    expect: { value: [lamp] },
  },
  {
    name: "list by the other enum",
    steps: ["items", "list"],
    input: { status: "draft" },
    expect: { value: [desk] },
  },
  {
    name: "list with an unknown enum value",
    steps: ["items", "list"],
    input: { status: "gone" },
    expect: { error: "input" },
  },
  {
    name: "read: optional field present, null parent, circle",
    steps: ["items", ["itemId", "1"], "read"],
    expect: { value: lamp },
  },
  {
    name: "read: optional field absent, parent set, square",
    steps: ["items", ["itemId", "2"], "read"],
    expect: { value: desk },
  },
  {
    name: "read a missing item",
    steps: ["items", ["itemId", "9"], "read"],
    expect: { error: "notFound" },
  },
  {
    name: "read a capture with odd characters",
    steps: ["items", ["itemId", "a b/c"], "read"],
    expect: { error: "notFound" },
  },
  {
    name: "rename",
    steps: ["items", ["itemId", "2"], "rename"],
    input: { name: "Table" },
    expect: { value: { ...desk, name: "Table" } },
  },
  {
    name: "rename to empty",
    steps: ["items", ["itemId", "2"], "rename"],
    input: { name: "" },
    expect: { error: "input" },
  },
  {
    name: "rename a missing item",
    steps: ["items", ["itemId", "9"], "rename"],
    input: { name: "X" },
    expect: { error: "notFound" },
  },
  {
    name: "add (a hidden key is stripped)",
    steps: ["items", "add"],
    input: newItem(),
    expect: { value: fresh("3", newItem()) },
  },
  {
    name: "add a duplicate",
    steps: ["items", "add"],
    input: newItem({ name: "Lamp" }),
    expect: { error: "conflict" },
  },
  {
    name: "add with a note",
    steps: ["items", "add"],
    input: newItem({ name: "Rug", note: "red" }),
    expect: { value: fresh("3", newItem({ name: "Rug", note: "red" })) },
  },
  {
    name: "add with a parent",
    steps: ["items", "add"],
    input: newItem({ name: "Shelf", parent: "1" }),
    expect: { value: fresh("3", newItem({ name: "Shelf", parent: "1" })) },
  },
  {
    name: "add a circle",
    steps: ["items", "add"],
    input: newItem({ name: "Ball", shape: { kind: "circle", r: 2 } }),
    expect: { value: fresh("3", newItem({ name: "Ball", shape: { kind: "circle", r: 2 } })) },
  },
  {
    name: "add with many tags",
    steps: ["items", "add"],
    input: newItem({ name: "Box", tags: ["a", "b", "c"] }),
    expect: { value: fresh("3", newItem({ name: "Box", tags: ["a", "b", "c"] })) },
  },
  {
    name: "add with no tags",
    steps: ["items", "add"],
    input: newItem({ name: "Bin", tags: [] }),
    expect: { value: fresh("3", newItem({ name: "Bin", tags: [] })) },
  },
  {
    name: "add live",
    steps: ["items", "add"],
    input: newItem({ name: "Sign", status: "live" }),
    expect: { value: fresh("3", newItem({ name: "Sign", status: "live" })) },
  },
  {
    name: "add with another date",
    steps: ["items", "add"],
    input: newItem({ name: "Clock", at: new Date("2030-12-31T23:59:59.000Z") }),
    expect: {
      value: fresh("3", newItem({ name: "Clock", at: new Date("2030-12-31T23:59:59.000Z") })),
    },
  },
  {
    name: "add with fractional sizes",
    steps: ["items", "add"],
    input: newItem({ name: "Mat", size: { w: 0.5, h: 1.25 } }),
    expect: { value: fresh("3", newItem({ name: "Mat", size: { w: 0.5, h: 1.25 } })) },
  },
  {
    name: "add with an empty name",
    steps: ["items", "add"],
    input: newItem({ name: "" }),
    expect: { error: "input" },
  },
  {
    name: "add with a negative-free unknown status",
    steps: ["items", "add"],
    input: { ...newItem(), status: "gone" },
    expect: { error: "input" },
  },
  {
    name: "add without a size",
    steps: ["items", "add"],
    input: (({ size: _, ...rest }) => rest)(newItem()),
    expect: { error: "input" },
  },
  {
    name: "add with a wrong shape",
    steps: ["items", "add"],
    input: { ...newItem(), shape: { kind: "triangle" } },
    expect: { error: "input" },
  },
  {
    name: "add with a size of the wrong type",
    steps: ["items", "add"],
    input: { ...newItem(), size: { w: "wide", h: 1 } },
    expect: { error: "input" },
  },
  {
    name: "add with tags that are not strings",
    steps: ["items", "add"],
    input: { ...newItem(), tags: [1, 2] },
    expect: { error: "input" },
  },
  {
    name: "add with a date that is not one",
    steps: ["items", "add"],
    input: { ...newItem(), at: "yesterday" },
    expect: { error: "input" },
  },
  { name: "a crash", steps: ["boom"], expect: { error: "fault" } },
];

interface Surface {
  readonly name: string;
  /** Whether the values come back with dates revived, as the output schema says. */
  readonly revives: boolean;
  call(steps: readonly Step[], input: Record<string, unknown> | undefined): Promise<unknown>;
  classify(error: unknown): Kind | undefined;
}

const BY_STATUS: Record<number, Kind> = {
  404: "notFound",
  409: "conflict",
  422: "input",
  500: "fault",
};
const BY_CODE: Record<string, Kind> = {
  NOT_FOUND: "notFound",
  CONFLICT: "conflict",
  BAD_USER_INPUT: "input",
  INTERNAL_SERVER_ERROR: "fault",
};

function graphqlKind(error: unknown): Kind | undefined {
  const code = (error as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions
    ?.code;
  return code === undefined ? undefined : BY_CODE[code];
}

/** A GraphQL variable coercion failure is the caller's error too. */
function graphqlInputKind(error: unknown): Kind | undefined {
  const first = (error as { errors?: { extensions?: { code?: string } }[] }).errors?.[0];
  if (first !== undefined && first.extensions?.code === undefined) return "input";
  return graphqlKind(error);
}

const jsonForm = (value: unknown) => JSON.parse(JSON.stringify(value));

/** openapi-fetch over the served document: the leaf's method and path, from the route. */
function openapiSurface(base: string, root: Node): Surface {
  const client = openapiFetch({ baseUrl: base });
  const operations = listOperations(httpProjection(root));
  const send = client as unknown as Record<
    string,
    (path: string, init: Record<string, unknown>) => Promise<
      { data?: unknown; error?: unknown; response: Response }
    >
  >;
  return {
    name: "openapi-fetch",
    revives: false,
    async call(steps, input) {
      const names = steps.map((step) => typeof step === "string" ? step : step[0]);
      const operation = operations.find((o) =>
        o.steps.map((s) => s.name).join("/") === names.join("/")
      )!;
      const path: Record<string, string> = {};
      for (const step of steps) if (typeof step !== "string") path[step[0]] = step[1];
      const body = operation.method === "GET" ? undefined : jsonForm(input ?? {});
      const query = operation.method === "GET" ? input : undefined;
      const { data, error, response } = await send[operation.method](operation.path, {
        params: { path, query },
        ...(body === undefined ? {} : { body }),
      });
      if (error !== undefined) {
        throw Object.assign(new Error("openapi-fetch"), { status: response.status });
      }
      return data;
    },
    classify: (error) => BY_STATUS[(error as { status?: number }).status ?? 0],
  };
}

Deno.test("agreement (shop): every surface gives the same values and error kinds", async (t) => {
  const rest = createFetch(tree, { onError: () => {} });
  const graphqlServer = createGraphQLServer(tree, { onError: () => {} });
  const graphqlHttp = createHttpGraphQLServer(tree, { onError: () => {} });
  const graphqlWs = createWsHandler(graphqlServer);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    if (new URL(request.url).pathname !== "/graphql") return rest(request);
    return request.headers.get("upgrade") === "websocket"
      ? graphqlWs(request)
      : graphqlHttp(request);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const socket = createWsClient({
    url: `ws://127.0.0.1:${server.addr.port}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const dir = await Deno.makeTempDir({ prefix: "ramify-agreement-shop-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    const generated = await import(`file://${dir}/client.ts`);
    const graphqlSurface = (name: string, client: unknown, revives: boolean): Surface => ({
      name,
      revives,
      call: (steps, input) => callThrough(client, steps, input),
      classify: graphqlInputKind,
    });
    const surfaces: Surface[] = [
      {
        name: "call path",
        revives: true,
        call: async (steps, input) => {
          const { node, captures } = leafAt(tree, steps);
          // What arrives over any wire: JSON, dates as strings.
          return await createCall(node, { captures: Object.keys(captures) })(
            { ...jsonForm(input ?? {}), ...captures },
            {},
          );
        },
        classify: (error) =>
          error instanceof InputError
            ? "input"
            : error instanceof OutputError
            ? "fault"
            : error instanceof HttpError
            ? BY_STATUS[error.status]
            : error instanceof Error && error.message === "secret failure"
            ? "fault"
            : undefined,
      },
      {
        name: "HTTP client",
        revives: true,
        call: (steps, input) => callThrough(createClient(tree, { baseUrl: base }), steps, input),
        classify: (error) => error instanceof ClientError ? BY_STATUS[error.status] : undefined,
      },
      openapiSurface(base, tree),
      graphqlSurface(
        "GraphQL client over HTTP",
        createGraphQLClient(tree, { transport: httpTransport({ url: `${base}/graphql` }) }),
        true,
      ),
      graphqlSurface(
        "GraphQL client over WebSocket",
        createGraphQLClient(tree, { transport: wsTransport(socket) }),
        true,
      ),
      graphqlSurface(
        "generated GraphQL client",
        generated.createClient(generated.httpTransport(`${base}/graphql`)),
        false,
      ),
    ];
    assert.ok(CASES.length >= 29);
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const test of CASES) {
          reset();
          const where = `${surface.name}: ${test.name}`;
          let outcome: Outcome;
          try {
            outcome = { value: await surface.call(test.steps, test.input) };
          } catch (error) {
            const kind = surface.classify(error);
            if (kind === undefined) throw new Error(`${where}: unexpected error`, { cause: error });
            outcome = { error: kind };
          }
          const expected = "value" in test.expect && !surface.revives
            ? { value: jsonForm(test.expect.value) }
            : test.expect;
          assert.deepEqual(
            "value" in outcome ? { value: outcome.value } : outcome,
            expected,
            where,
          );
        }
      });
    }
  } finally {
    await socket.dispose();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
