// The programs the type-check comparison generates: one API of `ops`
// operations in 10-operation resources, written with ramify, oRPC and tRPC
// over the same zod schemas, each with a typed client that calls a few
// operations (one call a `@ts-expect-error`), and the schemas alone as the
// floor. Per resource: 5 POSTs taking a zod body, 5 GETs under a path capture
// (`/rN/{id}/gK`), all answering an item holding a `Date`; one POST declares a
// 409 with data, one GET a 404; every handler reads a context value that a
// middleware adds.

/** What a program is: its name, its files and the file the compiler is given. */
export interface Program {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly entry: string;
}

const PER_RESOURCE = 10;
const HALF = PER_RESOURCE / 2;

const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const resources = (ops: number) => range(Math.max(1, Math.round(ops / PER_RESOURCE)));

/** The shared schemas: an item (with a date), its fields, a key and a conflict's data. */
function schemas(ops: number): string {
  const lines = resources(ops).map((r) =>
    `export const Item${r} = z.object({ id: z.string(), name: z.string(), count: z.number().int(), createdAt: z.date() });
export const Fields${r} = z.object({ name: z.string().min(1), count: z.number().int() });
export const Key${r} = z.object({ id: z.string() });
export const Conflict${r} = z.object({ existing: z.string() });`
  );
  return `import { z } from "zod";\n${lines.join("\n")}\n`;
}

const floor = (ops: number): Program => ({
  name: "zod floor",
  files: { "schemas.ts": schemas(ops) },
  entry: "schemas.ts",
});

function ramifyResource(r: number): string {
  const post = (k: number) =>
    `    p${k}: op((fields, ctx) => ({ id: ctx.user.id, ...fields, createdAt: at }), { input: s.Fields${r}, output: s.Item${r}${
      k === 0 ? `, errors: { CONFLICT: { status: 409, data: s.Conflict${r} } }` : ""
    } }, authed),`;
  const get = (k: number) =>
    `      g${k}: op(({ id }: { id: string }, ctx) => ({ id, name: ctx.user.id, count: ${k}, createdAt: at }), http.get, { output: s.Item${r}${
      k === 0 ? `, errors: { NOT_FOUND: { status: 404 } }` : ""
    } }, authed),`;
  return `  r${r}: api({
${range(HALF).map(post).join("\n")}
  }, { fallback: { name: "id", subtree: api({
${range(HALF).map(get).join("\n")}
  }) } }),`;
}

/**
 * ramify's program, importing the package `pkg` (a second build of ramify,
 * installed under another name, is compared with the same program).
 */
const ramify = (ops: number, pkg = "@ramify/api", name = "ramify", prefix = "ramify"): Program => {
  const last = resources(ops).length - 1;
  return {
    name,
    files: {
      "schemas.ts": schemas(ops),
      [`${prefix}_tree.ts`]: `import { api, type Middleware, op, use } from "${pkg}/tree";
import { http } from "${pkg}/http/verbs";
import * as s from "./schemas.js";

const user: Middleware<{ user: { id: string } }> = (_call, next) => next({ user: { id: "u1" } });
const authed = use(user);
const at = new Date(0);

export const tree = api({
${resources(ops).map(ramifyResource).join("\n")}
});
`,
      [`${prefix}_client.ts`]: `import { createClient } from "${pkg}/http";
import { safe } from "${pkg}/client";
import { tree } from "./${prefix}_tree.js";

const client = createClient(tree, { baseUrl: "http://localhost" });

export async function calls() {
  const made = await client.r0.p1({ name: "x", count: 1 });
  const read = await client.r${last}.id("7").g1();
  const { error } = await safe(client.r0.id("7").g0());
  const missing = error?.code === "NOT_FOUND";
  const taken = await safe(client.r${last}.p0({ name: "x", count: 1 }));
  const by = taken.error?.code === "CONFLICT" ? taken.error.data.existing : "";
  // @ts-expect-error name is required
  await client.r0.p2({ count: 1 });
  return [made.id, read.createdAt.getTime(), missing, by];
}
`,
    },
    entry: `${prefix}_client.ts`,
  };
};

function orpcResource(r: number): string {
  const post = (k: number) =>
    `    p${k}: authed.route({ method: "POST", path: "/r${r}/p${k}" }).input(s.Fields${r}).output(s.Item${r})${
      k === 0 ? `.errors({ CONFLICT: { status: 409, data: s.Conflict${r} } })` : ""
    }.handler(({ input, context }) => ({ id: context.user.id, ...input, createdAt: at })),`;
  const get = (k: number) =>
    `    g${k}: authed.route({ method: "GET", path: "/r${r}/{id}/g${k}" }).input(s.Key${r}).output(s.Item${r})${
      k === 0 ? `.errors({ NOT_FOUND: { status: 404 } })` : ""
    }.handler(({ input, context }) => ({ id: input.id, name: context.user.id, count: ${k}, createdAt: at })),`;
  return `  r${r}: {
${range(HALF).map(post).join("\n")}
${range(HALF).map(get).join("\n")}
  },`;
}

const orpc = (ops: number): Program => {
  const last = resources(ops).length - 1;
  return {
    name: "oRPC",
    files: {
      "schemas.ts": schemas(ops),
      "orpc_router.ts": `import { os } from "@orpc/server";
import * as s from "./schemas.js";

const authed = os.$context<{ headers: Headers }>().use(({ next }) => next({ context: { user: { id: "u1" } } }));
const at = new Date(0);

export const router = {
${resources(ops).map(orpcResource).join("\n")}
};
`,
      "orpc_client.ts": `import { createORPCClient, isDefinedError, safe } from "@orpc/client";
import { RPCLink } from "@orpc/client/fetch";
import type { RouterClient } from "@orpc/server";
import type { router } from "./orpc_router.js";

const client: RouterClient<typeof router> = createORPCClient(new RPCLink({ url: "http://localhost/rpc" }));

export async function calls() {
  const made = await client.r0.p1({ name: "x", count: 1 });
  const read = await client.r${last}.g1({ id: "7" });
  const { error } = await safe(client.r0.g0({ id: "7" }));
  const missing = isDefinedError(error) && error.code === "NOT_FOUND";
  const taken = await safe(client.r${last}.p0({ name: "x", count: 1 }));
  const by = isDefinedError(taken.error) && taken.error.code === "CONFLICT" ? taken.error.data.existing : "";
  // @ts-expect-error name is required
  await client.r0.p2({ count: 1 });
  return [made.id, read.createdAt.getTime(), missing, by];
}
`,
    },
    entry: "orpc_client.ts",
  };
};

function trpcResource(r: number): string {
  const post = (k: number) =>
    `    p${k}: authed.input(s.Fields${r}).output(s.Item${r}).mutation(({ input, ctx }) => ({ id: ctx.user.id, ...input, createdAt: at })),`;
  const get = (k: number) =>
    `    g${k}: authed.input(s.Key${r}).output(s.Item${r}).query(({ input, ctx }) => ({ id: input.id, name: ctx.user.id, count: ${k}, createdAt: at })),`;
  return `  r${r}: {
${range(HALF).map(post).join("\n")}
${range(HALF).map(get).join("\n")}
  },`;
}

const trpc = (ops: number): Program => {
  const last = resources(ops).length - 1;
  return {
    name: "tRPC",
    files: {
      "schemas.ts": schemas(ops),
      "trpc_router.ts": `import { initTRPC } from "@trpc/server";
import * as s from "./schemas.js";

const t = initTRPC.context<{ headers: Headers }>().create();
const authed = t.procedure.use(({ next }) => next({ ctx: { user: { id: "u1" } } }));
const at = new Date(0);

export const router = t.router({
${resources(ops).map(trpcResource).join("\n")}
});
export type AppRouter = typeof router;
`,
      "trpc_client.ts":
        `import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "./trpc_router.js";

const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "http://localhost/trpc" })] });

export async function calls() {
  const made = await client.r0.p1.mutate({ name: "x", count: 1 });
  const read = await client.r${last}.g1.query({ id: "7" });
  const missing = await client.r0.g0.query({ id: "7" }).then(
    () => false,
    (error: unknown) => error instanceof TRPCClientError && error.data?.code === "NOT_FOUND",
  );
  // @ts-expect-error name is required
  await client.r0.p2.mutate({ count: 1 });
  return [made.id, read.createdAt, missing];
}
`,
    },
    entry: "trpc_client.ts",
  };
};

/** The four programs at `ops` operations: floor, ramify, oRPC, tRPC. */
export const programs = (ops: number): Program[] => [floor(ops), ramify(ops), orpc(ops), trpc(ops)];

/** ramify's program alone, for the growth line and the trace. */
export const ramifyProgram = (ops: number): Program => ramify(ops);

/** The package name the baseline build of ramify is installed under (see `_setup.ts`). */
export const BASELINE_PACKAGE = "@ramify/api-baseline";

/** ramify's program over the baseline build, named "ramify baseline". */
export const baselineProgram = (ops: number): Program =>
  ramify(ops, BASELINE_PACKAGE, "ramify baseline", "ramify_baseline");
