// The document against the standard tools: the OpenAPI 3.1 JSON Schema, Redocly's
// recommended lint rules, openapi-typescript and openapi-fetch on a live server.
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import { api, createFetch, http, op, toOpenApi } from "@ramify/api";
import { z } from "zod";
import { createTasks } from "@ramify/api/tasks";
import type { OpenApiDocument } from "@ramify/api/http";
import {
  bookstore,
  DEV_TOKEN,
  MemoryBookStore,
  serveBookstore,
} from "../../../examples/bookstore.ts";
import { generatedTree } from "../../support/generated_tree.ts";

const options = {
  title: "Bookstore",
  version: "1.0.0",
  license: { name: "MIT", identifier: "MIT" },
};

async function validate(doc: OpenApiDocument) {
  const result = await new Validator().validate(
    structuredClone(doc) as unknown as Record<string, unknown>,
  );
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
}

async function lint(doc: OpenApiDocument) {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    config,
    absoluteRef: "/openapi.json",
  });
  const errors = problems.filter((p) => p.severity === "error");
  assert.deepEqual(
    errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`),
    [],
  );
  return problems;
}

/**
 * Writes the document's types (openapi-typescript) beside a program that uses
 * them with openapi-fetch, type-checks the program and imports it.
 */
async function typedProgram(
  document: Parameters<typeof openapiTS>[0],
  dir: string,
  program: string,
): Promise<{ run: (...args: unknown[]) => Promise<unknown> }> {
  await Deno.writeTextFile(`${dir}/schema.d.ts`, astToString(await openapiTS(document)));
  await Deno.writeTextFile(`${dir}/client.ts`, program);
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--config", `${Deno.cwd()}/deno.json`, `${dir}/client.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
  return await import(`file://${dir}/client.ts`);
}

Deno.test("the document the example server serves is valid OpenAPI 3.1 and lints clean", async () => {
  // As `deno task server` runs it: guarded (security schemes, 201 with Location, 401/403), with
  // the example's own title, version and license.
  const server = await serveBookstore(0, new MemoryBookStore(), DEV_TOKEN, true);
  try {
    const doc: OpenApiDocument = await (await fetch(`${server.url}/openapi.json`)).json();
    assert.deepEqual(Object.keys(doc.components.securitySchemes ?? {}), ["bearerAuth"]);
    await validate(doc);
    const problems = await lint(doc);
    assert.deepEqual(
      problems.map((p) => `${p.ruleId}: ${p.message}`),
      [],
      "no warnings either",
    );
  } finally {
    await server.close();
  }
});

Deno.test("a generated tree of hundreds of operations is valid and lints clean", async () => {
  const doc = await toOpenApi(generatedTree(400), options);
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  assert.ok(operations.length >= 400, `${operations.length} operations`);
  assert.equal(new Set(operations.map((o) => o.operationId)).size, operations.length);
  assert.deepEqual(
    Object.keys(doc.components.schemas).sort(),
    [
      "Address",
      "AddressInput",
      "Item",
      "Note",
      "Owner",
      "OwnerInput",
      "Problem",
      "ValidationProblem",
    ],
    "shared titled schemas are deduplicated into components; an open input side is named apart",
  );
  await validate(doc);
  await lint(doc);
});

Deno.test("a tree with streaming leaves lints with zero warnings; item schemas stay in x-event-schema", async () => {
  const Tick = z.object({ n: z.number(), at: z.string() }).meta({ title: "Tick" });
  const Comment: z.ZodType<{ text: string; replies: unknown[] }> = z.object({
    text: z.string(),
    get replies() {
      return z.array(Comment);
    },
  }).meta({ id: "Comment" });
  const tree = api({
    ticks: op(async function* () {
      yield { n: 1, at: "now" };
    }, { tags: { streaming: true, readOnly: true }, output: Tick }),
    untyped: op(async function* () {
      yield 1;
    }, { tags: { streaming: true }, input: z.object({ from: z.number() }) }),
  }, {
    fallback: {
      name: "postId",
      subtree: api({
        comments: op(async function* () {
          yield { text: "hi", replies: [] };
        }, { tags: { streaming: true, readOnly: true }, output: Comment }),
      }),
    },
  });
  const doc = await toOpenApi(tree, options);
  await validate(doc);
  const problems = await lint(doc);
  assert.deepEqual(problems.map((p) => `${p.ruleId}: ${p.message}`), [], "no warnings either");
  assert.deepEqual(Object.keys(doc.components.schemas).sort(), ["Problem", "ValidationProblem"]);
  const eventSchemaOf = (path: string, method: "get" | "post") =>
    (doc.paths[path][method].responses["200"] as {
      content: Record<string, Record<string, unknown>>;
    }).content["text/event-stream"]["x-event-schema"] as Record<string, unknown> | undefined;
  assert.deepEqual(eventSchemaOf("/ticks", "get")?.properties as object, {
    n: { type: "number" },
    at: { type: "string" },
  });
  // The recursive item's references point at its own definitions, where the document holds them.
  const text = JSON.stringify(eventSchemaOf("/{postId}/comments", "get"));
  const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref);
  assert.ok(refs.length > 0, text);
  for (const ref of refs) {
    const target = ref.slice(2).split("/").map((token) =>
      decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")
    ).reduce<unknown>((at, token) => (at as Record<string, unknown>)?.[token], doc);
    assert.equal(typeof target, "object", `${ref} resolves in the document`);
  }
  assert.equal(eventSchemaOf("/untyped", "post"), undefined);
});

Deno.test("openapi-typescript types and openapi-fetch drive the live bookstore", async () => {
  const server = await serveBookstore(
    0,
    new MemoryBookStore([{ title: "Dune", author: "Frank Herbert" }]),
    DEV_TOKEN,
    true,
  );
  const base = server.url;
  const dir = await Deno.makeTempDir({ prefix: "ramify-openapi-" });
  try {
    const served = await (await fetch(`${base}/openapi.json`)).json();
    const { run } = await typedProgram(served, dir, CLIENT_PROGRAM);
    const outcome = await run(base, DEV_TOKEN);
    assert.equal(served.paths["/books/add"].post.security[0].bearerAuth.length, 0);
    assert.deepEqual(outcome, {
      refused: 401,
      location: "/books/2",
      listed: 1,
      added: { id: "2", title: "Emma", author: "Austen" },
      read: "Emma",
      replaced: "Jane Austen",
      reserved: true,
      started: 409,
      found: 1,
      featured: 2,
      rejected: { status: 422, issues: 2 },
      removed: 204,
      missing: 404,
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createFetch serves the same document toOpenApi builds", async () => {
  const tree = bookstore();
  const served = await (await createFetch(tree, { document: options, tasks: createTasks() })(
    new Request("http://localhost/openapi.json"),
  )).json();
  assert.deepEqual(served, JSON.parse(JSON.stringify(await toOpenApi(tree, options))));
});

// The program a user would write with the generated types: every operation, one
// request the schema rejects. Type errors here fail `deno check` above.
const CLIENT_PROGRAM = `
import createClient from "openapi-fetch";
import type { paths } from "./schema.d.ts";

export async function run(baseUrl: string, token: string) {
  const anonymous = createClient<paths>({ baseUrl });
  const refused = await anonymous.POST("/books/add", { body: { title: "Emma", author: "Austen" } });
  const client = createClient<paths>({ baseUrl, headers: { authorization: "Bearer " + token } });
  const list = await client.GET("/books/list");
  const added = await client.POST("/books/add", { body: { title: "Emma", author: "Austen" } });
  const id: string = added.data!.id;
  const read = await client.GET("/books/{bookId}", { params: { path: { bookId: id } } });
  const replaced = await client.PUT("/books/{bookId}", {
    params: { path: { bookId: id } },
    body: { title: "Emma", author: "Jane Austen" },
  });
  const reserved = await client.PUT("/books/{bookId}/checkout/reserve", {
    params: { path: { bookId: id } },
  });
  const started = await client.POST("/books/{bookId}/checkout/start", {
    params: { path: { bookId: id } },
  });
  const found = await client.GET("/catalog/search", { params: { query: { q: "emma", limit: 5 } } });
  const featured = await client.GET("/catalog/featured");
  // @ts-expect-error title is required by the schema: the types know it
  const rejected = await client.POST("/books/add", { body: { author: 3 } });
  const removed = await client.DELETE("/books/{bookId}", { params: { path: { bookId: id } } });
  const missing = await client.GET("/books/{bookId}", { params: { path: { bookId: id } } });
  return {
    refused: refused.response.status,
    location: added.response.headers.get("location"),
    listed: list.data!.length,
    added: added.data,
    read: read.data!.title,
    replaced: replaced.data!.author,
    reserved: reserved.response.ok,
    started: started.response.status,
    found: found.data!.length,
    featured: featured.response.ok ? (featured.data as unknown[]).length : -1,
    rejected: { status: rejected.response.status, issues: (rejected.error as { issues: unknown[] }).issues.length },
    removed: removed.response.status,
    missing: missing.response.status,
  };
}
`;

// A leaf that returns a PNG: its bytes documented by media type (with 206 and
// 416 for ranges), Redocly clean, and downloaded by openapi-fetch with the
// generated types.
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);
const pictures = api({
  logo: op(() => new File([PNG], "logo.png", { type: "image/png" }), http.get, {
    description: "The logo",
    tags: { readOnly: true },
    input: z.object({ scale: z.enum(["1x", "2x"]).optional() }),
    output: z.file().mime(["image/png"]),
  }),
  raw: op(() => new File([PNG], "raw.bin"), http.get, {
    description: "Bytes of no named type",
    tags: { readOnly: true },
    output: z.file(),
  }),
});

Deno.test("a PNG-returning leaf is documented as bytes, lints clean, and openapi-fetch downloads it", async () => {
  const doc = await toOpenApi(pictures, options);
  const logo = doc.paths["/logo"].get as unknown as {
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  };
  assert.deepEqual(logo.responses["200"].content, {
    "image/png": { schema: { type: "string", format: "binary", contentMediaType: "image/png" } },
  });
  assert.deepEqual(Object.keys(logo.responses["206"].content ?? {}), ["image/png"]);
  assert.deepEqual(Object.keys(logo.responses["416"].content ?? {}), ["application/problem+json"]);
  const raw = doc.paths["/raw"].get as unknown as typeof logo;
  assert.deepEqual(Object.keys(raw.responses["200"].content ?? {}), ["application/octet-stream"]);
  await validate(doc);
  const problems = await lint(doc);
  assert.deepEqual(problems.map((p) => `${p.ruleId}: ${p.message}`), [], "no warnings either");

  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createFetch(pictures, { document: options }),
  );
  const dir = await Deno.makeTempDir({ prefix: "ramify-openapi-png-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const served = await (await fetch(`${base}/openapi.json`)).json();
    const { run } = await typedProgram(served, dir, PNG_PROGRAM);
    assert.deepEqual(await run(base), {
      type: "image/png",
      bytes: [...PNG],
      part: [80, 78],
      partStatus: 206,
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

const PNG_PROGRAM = `
import createClient from "openapi-fetch";
import type { paths } from "./schema.d.ts";

export async function run(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const whole = await client.GET("/logo", { parseAs: "blob", params: { query: { scale: "2x" } } });
  const blob: Blob = whole.data!;
  const part = await client.GET("/logo", { parseAs: "blob", headers: { range: "bytes=1-2" } });
  // @ts-expect-error no such path: the types know the document
  await client.GET("/logos", { parseAs: "blob" });
  return {
    type: blob.type,
    bytes: [...new Uint8Array(await blob.arrayBuffer())],
    part: [...new Uint8Array(await part.data!.arrayBuffer())],
    partStatus: part.response.status,
  };
}
`;
