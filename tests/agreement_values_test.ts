// The agreement suite, part five: values that are not JSON. One tree of dates
// (in a query, a JSON, urlencoded and multipart body, an output, a stream's
// items), bytes (a PNG, a PDF, a byte stream, an empty body) and an uploaded
// file, called through every surface that takes part: raw HTTP (JSON,
// urlencoded and multipart bodies), the typed HTTP client, the manifest
// client, both GraphQL clients over HTTP and over WebSocket, MCP and the
// command line with flags (in process and with --url). Each gives the same
// values, in the form its wire has (see Surface below). A date in a path
// capture is revived too. The 20 MB download is agreement_values_big_test.ts.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createClient, createFetch, toClientManifest } from "@ramify/api/http";
import { createClientFromManifest } from "@ramify/api/client";
import {
  createGraphQLClient,
  createHttpGraphQLServer,
  generateGraphQLClient,
  projectGraphQL,
} from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import type { Client as McpClient } from "@modelcontextprotocol/client";
import { callThrough, type Step } from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";
import {
  cliFlagsCall,
  type Encoding,
  mcpValueCall,
  rawHttpCall,
  seen,
  type SeenBytes,
} from "./support/values.ts";

const AT = new Date("2026-05-01T12:30:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
const NEXT = new Date(AT.getTime() + DAY);
const AFTER = new Date(NEXT.getTime() + DAY);
/** The signature every PNG starts with, then an IHDR chunk's length. */
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);
const PDF = new TextEncoder().encode("%PDF-1.7\n%%EOF\n");
const STREAMED = new Uint8Array([0, 1, 2, 254, 255]);

// The handler computes with each date, so a string that was not revived is a fault.
const later = (date: Date) => new Date(date.getTime() + DAY);
const stamp = ({ title, at, also, window }: Input) => ({
  title,
  at,
  next: later(at),
  also: also.map(later),
  window: { from: later(window.from) },
});
const Dated = z.object({
  title: z.string(),
  at: z.date(),
  also: z.array(z.date()),
  window: z.object({ from: z.date() }),
});
type Input = z.output<typeof Dated>;
const Stamp = z.object({
  title: z.string(),
  at: z.date(),
  next: z.date(),
  also: z.array(z.date()),
  window: z.object({ from: z.date() }),
});

const tree = api({
  dates: api({
    query: op(stamp, http.get, { input: Dated, output: Stamp }),
    body: op(stamp, { input: Dated, output: Stamp, tags: { destructive: false } }),
    feed: op(async function* ({ at }) {
      yield { at };
      yield { at: later(at) };
    }, {
      tags: { streaming: true, readOnly: true },
      input: z.object({ at: z.date() }),
      output: z.object({ at: z.date() }),
    }),
  }, {
    fallback: {
      name: "day",
      subtree: api({
        read: op(({ day }) => ({ day, next: later(day) }), http.get, {
          input: z.object({ day: z.date() }),
          output: z.object({ day: z.date(), next: z.date() }),
        }),
      }),
    },
  }),
  // No output schema: GraphQL takes these leaves, and answers a field error at run time.
  bytes: api({
    png: op(() => new File([PNG], "dot.png", { type: "image/png" }), http.get),
    pdf: op(() => new Blob([PDF], { type: "application/pdf" }), http.get),
    stream: op(() => new Blob([STREAMED]).stream(), http.get),
    empty: op(() => new Blob([]), http.get),
  }),
  upload: op(({ file }) => ({ name: file.name, type: file.type, size: file.size }), {
    input: z.object({ file: z.file() }),
  }),
});

/** What a case gives: a value (dates as `Date`s, bytes as SeenBytes), or a stream's items. */
interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly stream?: boolean;
  readonly bytes?: boolean;
  readonly expect?: unknown;
  /** The leaf has an output schema: MCP gives its value as structuredContent too. */
  readonly structured?: boolean;
  /** The input holds a file: no MCP tool takes one (tool arguments are JSON). */
  readonly files?: boolean;
  /** The input is the caller's mistake: 422, or GraphQL's BAD_USER_INPUT (no `expect`). */
  readonly refused?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: "dates in a GET query (one, an array as repeated keys, an object as JSON), dates out",
    steps: ["dates", "query"],
    input: { title: "Talk", at: AT, also: [AT, NEXT], window: { from: NEXT } },
    expect: { title: "Talk", at: AT, next: NEXT, also: [NEXT, AFTER], window: { from: AFTER } },
    structured: true,
  },
  {
    name: "dates in a POST body (JSON, or urlencoded or multipart fields), dates out",
    steps: ["dates", "body"],
    input: { title: "Talk", at: AT, also: [AT, NEXT], window: { from: NEXT } },
    expect: { title: "Talk", at: AT, next: NEXT, also: [NEXT, AFTER], window: { from: AFTER } },
    structured: true,
  },
  {
    name: "a date in a path capture, dates in the output",
    steps: ["dates", ["day", AT.toISOString()], "read"],
    expect: { day: AT, next: NEXT },
    structured: true,
  },
  {
    name: "a date in, dates in a stream's items",
    steps: ["dates", "feed"],
    input: { at: AT },
    stream: true,
    expect: [{ at: AT }, { at: NEXT }],
    structured: true,
  },
  {
    name: "a date that is no RFC 3339 date-time is refused, not rolled over to March 2",
    steps: ["dates", "query"],
    input: { title: "Talk", at: "2026-02-30T00:00:00Z", also: [NEXT], window: { from: NEXT } },
    refused: true,
  },
  {
    name: "a date that is no RFC 3339 date-time is refused, not read in the server's time zone",
    steps: ["dates", "body"],
    input: { title: "Talk", at: "1", also: [NEXT], window: { from: NEXT } },
    refused: true,
  },
  {
    name: "a date that is no date-time at all is refused, in a stream's input too",
    steps: ["dates", "feed"],
    input: { at: "soon" },
    stream: true,
    refused: true,
  },
  {
    name: "a PNG",
    steps: ["bytes", "png"],
    bytes: true,
    expect: { type: "image/png", bytes: [...PNG] },
  },
  {
    name: "a PDF",
    steps: ["bytes", "pdf"],
    bytes: true,
    expect: { type: "application/pdf", bytes: [...PDF] },
  },
  {
    name: "a byte stream",
    steps: ["bytes", "stream"],
    bytes: true,
    expect: { type: "application/octet-stream", bytes: [...STREAMED] },
  },
  {
    name: "an empty body",
    steps: ["bytes", "empty"],
    bytes: true,
    expect: { type: "application/octet-stream", bytes: [] },
  },
  {
    name: "an uploaded file keeps its name and media type",
    steps: ["upload"],
    input: { file: new File([PNG], "dot.png", { type: "image/png" }) },
    expect: { name: "dot.png", type: "image/png", size: PNG.length },
    files: true,
  },
];

/**
 * "The same value" per surface. DATES: `Date`s where the client revives what
 * the schema promises, else the date-time string the wire carries (raw HTTP,
 * the generated GraphQL client, whose DateTime is typed string, MCP's JSON,
 * the command line's JSON). BYTES: the octets, with the media type where the
 * surface carries one (not a file the command line writes).
 */
interface Surface {
  readonly name: string;
  readonly dates: "Date" | "date-time string";
  readonly mediaTypes: boolean;
  readonly streams: boolean;
  readonly kind?: "graphql" | "mcp";
  /** How the surface refuses a file it cannot send (a WebSocket carries JSON alone). */
  readonly refusesFiles?: RegExp;
  call(test: Case): Promise<unknown>;
}

/** The expected value as the surface shows it. */
function expected(surface: Surface, test: Case): unknown {
  const value = surface.dates === "Date" ? test.expect : JSON.parse(JSON.stringify(test.expect));
  if (!test.bytes || surface.mediaTypes) return value;
  return { bytes: (value as SeenBytes).bytes };
}

/** The caller's mistake: HTTP, MCP and the command line say 422, GraphQL BAD_USER_INPUT. */
async function refusesInput(surface: Surface, test: Case, where: string): Promise<void> {
  await assert.rejects(
    surface.call(test),
    (error: { status?: number; errors?: GraphQLErrorLike[] }) => {
      if (surface.kind === "graphql") {
        assert.equal(error.errors?.[0]?.extensions?.code, "BAD_USER_INPUT", where);
      } else assert.equal(error.status, 422, where);
      return true;
    },
    where,
  );
}

/** GraphQL has no bytes: a leaf answering with them is a field error naming their media type. */
async function refusesBytes(surface: Surface, test: Case, where: string): Promise<void> {
  const { type } = test.expect as SeenBytes;
  await assert.rejects(surface.call(test), (error: { errors?: GraphQLErrorLike[] }) => {
    const [first] = error.errors ?? [];
    assert.equal(first?.extensions?.code, "INTERNAL_SERVER_ERROR", where);
    assert.match(
      first.message,
      new RegExp(`bytes \\(${type}\\), which GraphQL cannot carry`),
      where,
    );
    return true;
  }, where);
}

interface GraphQLErrorLike {
  readonly message: string;
  readonly extensions?: { readonly code?: unknown };
}

/** A leaf that takes files is no MCP tool, while its siblings are. */
async function hasNoTool(client: McpClient, test: Case, where: string): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes("dates.query"), where);
  assert.ok(!names.includes(test.steps.join(".")), where);
}

Deno.test("agreement: dates, bytes and files give the same values on every surface and client", async (t) => {
  // Bytes in GraphQL are a fault, and nothing else here is one.
  const faults: { graphql: unknown[]; other: unknown[] } = { graphql: [], other: [] };
  const onError = (error: unknown) => void faults.other.push(error);
  const { base, mcpClient, socket, generated, close } = await serveEverySurface(tree, {
    onError: { rest: onError, graphql: (error) => void faults.graphql.push(error), mcp: onError },
  });
  try {
    const through = (client: unknown) => (test: Case) =>
      // A generated client's subscription is an iterable at once, not a promise of one.
      Promise.resolve(callThrough(client, test.steps, test.input)).then(seen);
    const sent: { query: string; variables?: unknown }[] = [];
    const recording = async (request: Request) => {
      if (request.headers.get("content-type") === "application/json") {
        sent.push(await request.clone().json());
      }
      return await fetch(request);
    };
    const raw = (encoding: Encoding): Surface => ({
      name: `raw HTTP, ${encoding} bodies`,
      dates: "date-time string",
      mediaTypes: true,
      streams: true,
      call: (test) => rawHttpCall(base, tree, encoding)(test.steps, test.input),
    });
    const cli = (name: string, url?: string): Surface => ({
      name,
      dates: "date-time string",
      mediaTypes: false,
      streams: true,
      call: (test) =>
        cliFlagsCall(tree, url)(
          test.steps,
          test.input ?? {},
          test.bytes ? "bytes" : test.stream ? "lines" : "json",
        ),
    });
    const surfaces: Surface[] = [
      raw("json"),
      raw("urlencoded"),
      raw("multipart"),
      {
        name: "HTTP client",
        dates: "Date",
        mediaTypes: true,
        streams: true,
        call: through(createClient(tree, { baseUrl: base })),
      },
      {
        name: "manifest client",
        dates: "Date",
        mediaTypes: true,
        streams: true,
        call: through(createClientFromManifest<typeof tree>(toClientManifest(tree), {
          baseUrl: base,
        })),
      },
      {
        name: "GraphQL client over HTTP",
        dates: "Date",
        mediaTypes: true,
        streams: false,
        kind: "graphql",
        call: through(
          createGraphQLClient(tree, {
            transport: httpTransport({ url: `${base}/graphql`, fetch: recording }),
          }),
        ),
      },
      {
        name: "generated GraphQL client over HTTP",
        dates: "date-time string",
        mediaTypes: true,
        streams: false,
        kind: "graphql",
        call: through(generated.createClient(generated.httpTransport(`${base}/graphql`))),
      },
      {
        name: "GraphQL client over WebSocket",
        dates: "Date",
        mediaTypes: true,
        streams: true,
        kind: "graphql",
        refusesFiles: /^TypeError: wsTransport cannot send files/,
        call: through(createGraphQLClient(tree, { transport: wsTransport(socket) })),
      },
      {
        name: "generated GraphQL client over WebSocket",
        dates: "date-time string",
        mediaTypes: true,
        streams: true,
        kind: "graphql",
        refusesFiles: /^TypeError: wsTransport cannot send files/,
        call: through(generated.createClient(generated.wsTransport(socket))),
      },
      {
        name: "MCP client over Streamable HTTP",
        dates: "date-time string",
        mediaTypes: true,
        streams: true,
        kind: "mcp",
        call: (test) => mcpValueCall(mcpClient)(test.steps, test.input, test.structured),
      },
      cli("command line, in process"),
      cli("command line, against the server (--url)", base),
    ];
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const test of CASES) {
          if (test.stream && !surface.streams) continue;
          const where = `${surface.name}: ${test.name}`;
          if (surface.kind === "graphql" && test.bytes) await refusesBytes(surface, test, where);
          else if (surface.kind === "mcp" && test.files) await hasNoTool(mcpClient, test, where);
          else if (test.refused) await refusesInput(surface, test, where);
          else if (test.files && surface.refusesFiles) {
            await assert.rejects(surface.call(test), surface.refusesFiles, where);
          } else assert.deepEqual(await surface.call(test), expected(surface, test), where);
        }
      });
    }
    assert.deepEqual(faults.other, [], "no fault on HTTP or MCP");
    const bytesCases = CASES.filter((test) => test.bytes).length;
    assert.equal(faults.graphql.length, 4 * bytesCases, "each GraphQL client's bytes, reported");
    for (const fault of faults.graphql) assert.match(String(fault), /which GraphQL cannot carry/);
    // Dates travel as GraphQL variables (query, body, capture), never inlined in the document.
    const iso = AT.toISOString();
    const dated = sent.filter((operation) => JSON.stringify(operation.variables).includes(iso));
    assert.equal(dated.length, 3, "operations with the date in their variables");
    for (const operation of dated) assert.ok(!operation.query.includes(iso), operation.query);
  } finally {
    await close();
  }
});

Deno.test("agreement: GraphQL refuses an output schema of bytes when built, naming the way out", async () => {
  const cover = () => new File([PNG], "cover.png", { type: "image/png" });
  const Png = z.file().mime(["image/png"]);
  const declared = api({ cover: op(cover, http.get, { output: Png }) });
  const refusal =
    /the output schema of cover holds a file.*GraphQL has no bytes.*meta\.graphql: false/s;
  assert.throws(() => projectGraphQL(declared), refusal);
  assert.throws(() => createHttpGraphQLServer(declared), refusal);
  assert.throws(() => generateGraphQLClient(declared), refusal);
  // Kept out of GraphQL, the leaf serves the same PNG everywhere else.
  const kept = api({ cover: op(cover, http.get, { output: Png, graphql: false }) });
  assert.deepEqual(projectGraphQL(kept).fields, []);
  const rest = createFetch(kept);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, rest);
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const png = { type: "image/png", bytes: [...PNG] };
    assert.deepEqual(await rawHttpCall(base, kept, "json")(["cover"]), png);
    assert.deepEqual(await seen(await createClient(kept, { baseUrl: base }).cover()), png);
  } finally {
    await server.shutdown();
  }
});
