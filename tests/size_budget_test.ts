// Size budgets per entry point: each public entry an edge or browser app
// imports, bundled as a user would (`deno bundle --platform browser --minify`),
// with third-party packages (zod, graphql) left external so the figure is
// ramify's own code. A budget is the size measured on the date written beside
// it plus ~10% headroom: growing past it is a decision, made by raising the
// figure here. Surfaces an entry does not import contribute nothing (string
// checks on the bundle).
import assert from "node:assert/strict";
import { bundle } from "./support/bundle.ts";

const THIRD_PARTY = ["zod", "graphql"];

interface Budget {
  /** The entry module under tests/support/size_entries/. */
  readonly file: string;
  /** Minified bytes of ramify's own code, at most. */
  readonly minified: number;
  /** The same, gzipped. */
  readonly gzip: number;
  /** Text that only code the entry does not import holds. */
  readonly absent: readonly string[];
  /** Text the entry's own code holds, so the absent checks look at a real bundle. */
  readonly present: readonly string[];
}

// Measured 2026-11-25 (deno 2, esbuild via `deno bundle`): minified / gzip bytes.
//   client 8,781 / 3,865   graphql_client 6,486 / 2,837   tree 8,034 / 3,097
//   rest 70,679 / 25,336   rest_graphql 117,719 / 41,134
// With zod and graphql bundled in: rest 524,716 / 119,050, rest_graphql 757,158 / 183,799.
const BUDGETS: readonly Budget[] = [
  {
    // @ramify/api/client: the manifest-driven HTTP client.
    file: "client.ts",
    // +1.8 KB (issue 47; 8,960 / 3,910 before, 10,747 / 4,562 after): a long-running leaf's call
    // awaits its task's result (polling with backoff) or gives its handle (`{ async: true }`).
    minified: 11_500,
    gzip: 4_900,
    absent: ["graphql", "GraphQL", "openapi", "No route matches", "zod", "Deno."],
    present: ["application/json"],
  },
  {
    // @ramify/api/graphql/client: the manifest-driven GraphQL client over HTTP.
    file: "graphql_client.ts",
    // +1.8 KB (issue 47; 6,828 / 2,987 before, 8,586 / 3,724 after): a long-running leaf's call
    // awaits its task's result (reading task(id) with backoff) or gives its handle.
    // +0.1 KB (9,439 / 3,981 before, 9,548 / 4,006 after): the poll of a task is the HTTP
    // client's one helper (client/task_poll.ts), not a loop of the GraphQL client's own.
    minified: 9_700,
    gzip: 4_100,
    absent: ['from"graphql"', "openapi", "No route matches", "GraphQLSchema", "zod", "Deno."],
    present: ["application/graphql-response+json"],
  },
  {
    // @ramify/api/tree: `api` and `op` alone.
    file: "tree.ts",
    // +0.2 KB (issue 47): the standard tag longRunning and what it means.
    // +0.9 KB (issue 45; 9,932 / 3,857 measured): `scopes` in meta, which api() writes onto the
    // leaves beneath a subtree that declares them (the union along the path).
    minified: 10_400,
    gzip: 4_050,
    absent: ["graphql", "GraphQL", "openapi", "No route matches", 'from"zod"'],
    present: ["must be a Standard Schema"],
  },
  {
    // The lean REST worker: toRouter over the tiny tree's projection, no document, no
    // long-running leaf, no OAuth guard. The goal is 60 KB: the task runtime and its HTTP
    // resources (tasks/http.ts) reach a bundle only through the `tasks` value, OAuth through its
    // guard, the OpenAPI generator through createFetch.
    // 2026-12-02: 64,330 / 23,305 measured. What else every REST worker carries that the goal
    // leaves no room for: Idempotency-Key support (http/server/idempotency.ts, web/ and route/
    // idempotency.ts: 4.7 KB), reached by the router for a leaf that may take a key.
    // Growth over this entry, measured 2026-12-02 (minified, jose external):
    //   a long-running leaf with `tasks: createTasks()`: 78,726 (+14.4 KB: the runtime, its memory
    //     store, its HTTP resources);
    //   an oauth() guard on a leaf: 73,009 (+8.7 KB: auth/, its refusals and challenges);
    //   the document (createFetch, rest.ts below): 90,413 (+26.1 KB: the OpenAPI generator, with
    //     its description of tasks, and the protected-resource metadata answer).
    file: "rest_lean.ts",
    minified: 66_000,
    gzip: 23_800,
    absent: [
      // Task code: its HTTP resources, its runtime, its OpenAPI description.
      "No task resource at this path",
      "The instance running the task stopped",
      "TaskStatus",
      // OAuth: the guard's challenges, the protected-resource metadata.
      "resource_metadata",
      "oauth-protected-resource",
      // MCP.
      "jsonrpc",
      // The OpenAPI generator.
      "3.1.0",
      "components/schemas",
      "graphql",
    ],
    present: ["No route matches", 'from"zod"'],
  },
  {
    // @ramify/api/http: createFetch over a GET with a capture and a zod POST, with /openapi.json.
    file: "rest.ts",
    // +0.8 KB (issue 44): createFetch refuses an option key it does not know, naming the nearest.
    // +2.9 KB (issue 43; 81,653 / 29,184 measured): one reading of an input schema for text
    // (tree/string_plan.ts), and the route read from the tree's catalogue (tree/catalogue.ts, with
    // tree/invalidation.ts, which it describes) with one rule for result kinds.
    // +15.2 KB (issue 47; 83,751 / 29,476 before, 98,936 / 35,163 after): long-running leaves' tasks
    // (the runtime, its memory store, the 202 and the status resources), loaded by a dynamic import
    // that esbuild keeps in the bundle, evaluated only for a tree with a long-running leaf; and
    // their OpenAPI description.
    // +2.0 KB (issue 45 and 47; 99,226 / 35,688 measured): createFetch publishes an oauth()
    // guard's protected-resource metadata (RFC 9728); a task's pending questions by key.
    // +4.7 KB (issue 47; 97,776 / 35,105 before, 102,462 / 36,570 after, on 2cb1bc4): a task's
    // question answered over HTTP (POST .tasks/{id}/input, tasks/answer.ts) and its OpenAPI
    // description, in the task code a long-running leaf loads.
    // +0.7 KB (issue 44; 102,401 / 36,565 before, 103,131 / 36,741 after): the OpenAPI generator
    // is loaded by the document's first request (esbuild's lazy wrapper), so a worker evaluates
    // none of it at start (cold start on workerd: 1.08-1.13x Hono after, within the runs' noise
    // of 1.12-1.15x before; BENCHMARKS.md).
    // 2026-12-01 (issue 52): deno 2.9.6's esbuild measures a317952 (the wave's start) at 105,336 /
    // 36,927, over the budget above; after the call engine (engine/engine.ts), tasks, sessions and
    // idempotency records owned by the guards' principal (tree/principal.ts) and the store outage
    // log (tree/outage.ts): 107,128 / 37,607 (+1.8 KB).
    // -16.7 KB (2026-12-02; 90,413 / 32,057 measured): the task runtime and its HTTP resources
    // reach a bundle only through the `tasks` value (a tree with a long-running leaf without one
    // is refused), and the generator is imported, not import()ed (the lazy wrappers weighed 1.7 KB).
    minified: 99_500,
    gzip: 34_800,
    // Request policies are values (issue 44): a worker that lists none carries none; nor the
    // task code of a tree without a long-running leaf.
    absent: [
      "graphql",
      "GraphQL",
      "access-control-allow-methods",
      "ratelimit-policy",
      "No task resource at this path",
      "The instance running the task stopped",
    ],
    present: ["No route matches", "3.1.0", 'from"zod"'],
  },
  {
    // The same worker listing cors() and rateLimit(): what the two policies add.
    file: "rest_policies.ts",
    // 2026-11-27 (issue 44): 106,192 / 38,002 measured, 3.7 KB over rest.ts's same run
    // (which holds the answers to a task's questions, issue 47, +4.7 KB).
    // 2026-12-01 (issue 52): a317952 109,066 / 38,335 with deno 2.9.6 before, 110,858 / 39,035
    // after, as rest.ts's.
    // 2026-12-02: 94,143 / 33,387, as rest.ts's (-16.7 KB).
    minified: 103_500,
    gzip: 36_700,
    absent: ["graphql", "GraphQL"],
    present: ["access-control-allow-methods", "ratelimit-policy", "No route matches"],
  },
  {
    // The REST worker plus the same tree as GraphQL over HTTP (@ramify/api/graphql).
    file: "rest_graphql.ts",
    // Raised 2026-11-25 for the compiled GraphQL executor (issue 33): 131,130 / 45,419.
    // Raised 2026-11-26 for the transport loaded on first request (issue 35): 142,267 /
    // 50,091: esbuild wraps each module the transport reaches, to evaluate it on demand.
    // +14.0 KB (issue 47; 156,828 / 54,388 before, 170,823 / 59,316 after): as the REST worker's.
    // +4.8 KB (issue 47; 170,823 / 60,039 before, 175,614 / 61,805 after): GraphQL's Task types,
    // fields and resolvers, in the schema of a tree with a long-running leaf.
    // +5.5 KB (issue 47; 173,988 / 61,265 before, 179,438 / 62,961 after, on 2cb1bc4): the
    // REST worker's +4.7 KB, and GraphQL's answerTask and Task.question(s).
    // 179,705 / 63,042 measured (2026-11-27): the generated client's task runtime is text made
    // by a function, so a server that never generates a client keeps none of it (8.9 KB).
    // 2026-12-01 (issue 52): a317952 182,637 / 62,961 with deno 2.9.6, 184,252 / 63,651 after
    // (+1.6 KB, as rest.ts's).
    // 2026-12-02: 183,469 / 64,691: REST's task code goes, GraphQL's stays (its schema makes a
    // runtime of its own for a tree with a long-running leaf).
    minified: 186_500,
    gzip: 64_800,
    absent: ["TaskQuestionState"],
    present: ["No route matches", 'from"graphql"', 'from"zod"'],
  },
];

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

function entry(file: string): string {
  return new URL(`./support/size_entries/${file}`, import.meta.url).pathname;
}

for (const budget of BUDGETS) {
  Deno.test(`size budget: ${budget.file} fits and holds only what it imports`, async () => {
    const code = await bundle(entry(budget.file), THIRD_PARTY);
    const minified = new TextEncoder().encode(code).byteLength;
    const gzip = await gzipSize(code);
    const figures = `${minified} bytes minified, ${gzip} gzipped`;
    assert.ok(minified <= budget.minified, `${figures}: over ${budget.minified} minified`);
    assert.ok(gzip <= budget.gzip, `${figures}: over ${budget.gzip} gzipped`);
    for (const text of budget.present) {
      assert.ok(code.includes(text), `the check looks at a real bundle: ${text} is missing`);
    }
    for (const text of budget.absent) {
      assert.ok(!code.includes(text), `the bundle holds ${text}`);
    }
  });
}

Deno.test("size budget: third-party packages stay out of the measured figure", async () => {
  // Without --external the same entry carries zod itself: the budget above would measure it.
  const own = await bundle(entry("rest.ts"), THIRD_PARTY);
  const whole = await bundle(entry("rest.ts"));
  assert.ok(!whole.includes('from"zod"'), "zod is bundled in");
  assert.ok(whole.length > own.length * 3, `${whole.length} vs ${own.length}`);
});
