// The agreement suite, part two: a shop with enums, unions, optional and
// nullable fields, nested objects, arrays, dates, captures, files, HttpError
// 404/409, validation and crashes, one table of calls through every surface and client:
// the call path, the HTTP client, openapi-fetch over the served document, the
// GraphQL client over HTTP and WebSocket, the generated GraphQL client, the
// MCP SDK's client over Streamable HTTP, and the command line in process and
// against the server.
// Each must give the same value (in its JSON form where a client does not
// revive dates) or the same kind of error.
import assert from "node:assert/strict";
import { createCall, InputError, OutputError } from "@ramify/api/tree/catalogue";
import type { Node } from "@ramify/api/tree/node";
import { ClientError, createClient } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import { createGraphQLClient } from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import {
  callThrough,
  cliCall,
  leafAt,
  mcpCall,
  openapiCall,
  type Step,
} from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";
import { type Case, CASES, type Kind, type Outcome, reset, tree } from "./support/shop.ts";

interface Surface {
  readonly name: string;
  /** Whether the values come back with dates revived, as the output schema says. */
  readonly revives: boolean;
  /** For a surface that cannot carry files (a WebSocket, MCP's JSON arguments): how it refuses a call. */
  readonly refuses?: (test: Case) => RegExp | undefined;
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

const holdsFile = (input: Record<string, unknown> | undefined) =>
  Object.values(input ?? {}).flat().some((value) => value instanceof Blob);

/** What arrives over a wire: the JSON form, with files as multipart parts (a Blob is a File named "blob"). */
function wireForm(value: unknown): unknown {
  if (value instanceof File) return value;
  if (value instanceof Blob) return new File([value], "blob", { type: value.type });
  if (Array.isArray(value)) return value.map(wireForm);
  if (typeof value !== "object" || value === null) return jsonForm(value);
  if (value instanceof Date) return value.toISOString();
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== undefined).map((
      [key, item],
    ) => [key, wireForm(item)]),
  );
}

/** openapi-fetch over the served document: the leaf's method and path, from the route. */
function openapiSurface(base: string, root: Node): Surface {
  return {
    name: "openapi-fetch",
    revives: false,
    call: openapiCall(base, root),
    classify: (error) => BY_STATUS[(error as { status?: number }).status ?? 0],
  };
}

Deno.test("agreement (shop): every surface gives the same values and error kinds", async (t) => {
  const { base, mcpClient, socket, generated, close } = await serveEverySurface(tree);
  try {
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
          // What arrives over any wire: JSON, dates as strings, files as parts.
          return await createCall(node, { captures: Object.keys(captures) })(
            { ...wireForm(input ?? {}) as Record<string, unknown>, ...captures },
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
      {
        ...graphqlSurface(
          "GraphQL client over WebSocket",
          createGraphQLClient(tree, { transport: wsTransport(socket) }),
          true,
        ),
        refuses: (test) => holdsFile(test.input) ? /cannot send files/ : undefined,
      },
      graphqlSurface(
        "generated GraphQL client",
        generated.createClient(generated.httpTransport(`${base}/graphql`)),
        false,
      ),
      ...[undefined, base].map((url): Surface => ({
        name: url === undefined ? "command line, in process" : "command line, --url",
        revives: false,
        call: cliCall(tree, url),
        classify: (error) => {
          const { status, exitCode } = error as { status?: number; exitCode?: number };
          return exitCode === 1 ? BY_STATUS[status ?? 0] : undefined;
        },
      })),
      {
        name: "MCP client over Streamable HTTP",
        revives: false,
        // A leaf whose input takes files is no tool: MCP arguments are JSON.
        refuses: (test) => test.files ? /Unknown tool/ : undefined,
        call: mcpCall(mcpClient),
        classify: (error) => BY_STATUS[(error as { status?: number }).status ?? 0],
      },
    ];
    assert.ok(CASES.length >= 40);
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const test of CASES) {
          reset();
          const where = `${surface.name}: ${test.name}`;
          const refusal = surface.refuses?.(test);
          if (refusal !== undefined) {
            await assert.rejects(surface.call(test.steps, test.input), refusal, where);
            continue;
          }
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
    await close();
  }
});
