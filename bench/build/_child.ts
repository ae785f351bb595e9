// One sample of bench/build/count.ts, in a fresh process. The library comes
// from the root whose deno.json the process runs with (`--config`), so the
// same file measures any commit that has the public API below.
//   deno run -A --config <root>/deno.json bench/build/_child.ts build|serve <leaves>
//
// `build`: import, the zod schemas, the tree, then each projection in turn on
// the one tree (as `serve()` makes them): the HTTP handler, the OpenAPI
// document, the GraphQL SDL, the tool list and the command line (its first
// command projects every leaf). `serve`: import, schemas, tree, `serve()`
// listening, then the first GET (`read`, a GET under the capture, is the
// item's own path) and the first POST over the loopback.
//
// After each phase it prints `phase <name>` and waits for a line on standard
// input: under callgrind the parent dumps the counts there, so each phase
// is counted alone. Last it prints the phases' wall times (ms) as JSON, the
// waits left out.
import { z } from "zod";

type Node = unknown;
type Op = (...args: unknown[]) => Node;
type Api = (children: Record<string, Node>, options?: unknown) => Node;

const [mode, leavesText] = Deno.args;
const leaves = Number(leavesText);
if ((mode !== "build" && mode !== "serve") || !(leaves >= 10)) {
  throw new Error("usage: _child.ts build|serve <leaves>");
}

const wall: Record<string, number> = {};
const ack = new Uint8Array(16);
let since = performance.now();

async function phase(name: string): Promise<void> {
  wall[name] = performance.now() - since;
  await Deno.stdout.write(new TextEncoder().encode(`phase ${name}\n`));
  if (await Deno.stdin.read(ack) === null) throw new Error("the parent closed standard input");
  since = performance.now();
}

// Shared models, titled (named components and GraphQL types); each resource
// also has its own, as an API's resources do.
const Address = z.object({ street: z.string(), city: z.string(), zip: z.string() })
  .meta({ title: "Address" });
const Owner = z.object({ id: z.string(), name: z.string(), address: Address })
  .meta({ title: "Owner" });
const Page = z.object({
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
const owner = { id: "o1", name: "Ann", address: { street: "Main St", city: "Oslo", zip: "0150" } };

/** Resource `r`'s schemas. */
function schemasOf(r: number) {
  const Item = z.object({
    id: z.string(),
    name: z.string().describe("What the item is called"),
    owner: Owner,
    tags: z.array(z.string()),
    status: z.enum(["draft", "live", "archived"]),
    created: z.date(),
  }).meta({ title: `Item${r}` });
  const Fields = z.object({ name: z.string().min(1), owner: Owner, tags: z.array(z.string()) });
  const Note = z.object({ id: z.string(), text: z.string(), author: Owner })
    .meta({ title: `Note${r}` });
  const Search = z.object({
    q: z.string(),
    filter: z.object({ status: z.enum(["draft", "live", "archived"]) }).optional(),
  });
  return { Item, Fields, Note, Search, Text: z.object({ text: z.string() }) };
}

/**
 * Ten leaves per resource: collection operations, an item under a capture
 * with its own operations, notes under a second capture; GETs by verb, tags
 * on most, inputs and outputs through zod.
 */
function resourceOf(api: Api, op: Op, get: unknown, s: ReturnType<typeof schemasOf>): Node {
  const item = { id: "1", name: "Lamp", owner, tags: [], status: "live", created: new Date(0) };
  const note = { id: "n1", text: "Bright", author: owner };
  const readOnly = { tags: { readOnly: true } };
  const writes = { tags: { destructive: false } };
  return api({
    list: op(() => [], get, { input: Page, output: z.array(s.Item), ...readOnly }),
    add: op((fields: object) => ({ ...item, ...fields }), {
      input: s.Fields,
      output: s.Item,
      ...writes,
    }),
    search: op(() => [], get, { input: s.Search, output: z.array(s.Item), ...readOnly }),
  }, {
    fallback: {
      name: "id",
      subtree: api({
        read: op(() => item, get, { output: s.Item, ...readOnly }),
        replace: op(() => item, {
          input: s.Fields,
          output: s.Item,
          tags: { idempotent: true, destructive: false },
        }),
        remove: op(() => null, { output: z.null(), tags: { destructive: true } }),
        archive: op(() => item, { output: s.Item, description: "Archives the item", ...writes }),
        notes: api({
          list: op(() => [], get, { output: z.array(s.Note), ...readOnly }),
          add: op(() => note, { input: s.Text, output: s.Note, ...writes }),
        }, {
          fallback: {
            name: "noteId",
            subtree: api({ read: op(() => note, get, { output: s.Note, ...readOnly }) }),
          },
        }),
      }),
    },
  });
}

const [tree, http, verbs, graphql, tools, cli, serving] = await Promise.all([
  import("@ramify/api/tree"),
  import("@ramify/api/http"),
  import("@ramify/api/http/verbs"),
  mode === "build" ? import("@ramify/api/graphql") : undefined,
  mode === "build" ? import("@ramify/api/tools") : undefined,
  mode === "build" ? import("@ramify/api/cli") : undefined,
  mode === "serve" ? import("@ramify/api/serve") : undefined,
]);
await phase("import");
const resources = leaves / 10;
const schemas = Array.from({ length: resources }, (_, r) => schemasOf(r));
await phase("schemas");
const children: Record<string, Node> = {};
for (let r = 0; r < resources; r++) {
  children[`resource${r}`] = resourceOf(
    tree.api as unknown as Api,
    tree.op as unknown as Op,
    verbs.http.get,
    schemas[r],
  );
}
const root = tree.api(children as never);
await phase("tree");

if (mode === "build") {
  http.createFetch(root);
  await phase("http");
  await http.toOpenApi(root);
  await phase("openapi");
  graphql!.toSDL(root);
  await phase("graphql");
  tools!.toTools(root, { warnMissingHints: false });
  await phase("tools");
  let help = "";
  const io = {
    out: (text: string) => help += text,
    err: (text: string) => help += text,
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
    prompt: () => Promise.resolve(undefined),
    readStdin: () => Promise.resolve(""),
    readFile: () => Promise.resolve(new Uint8Array()),
  };
  const code = await cli!.runCli(root, ["resource0", "add", "--help"], { io });
  if (code !== 0 || !help.includes("--name")) throw new Error(`the CLI's help: ${code} ${help}`);
  await phase("cli");
} else {
  const server = await serving!.serve(root, { port: 0, hostname: "127.0.0.1", quiet: true });
  await phase("serve");
  const last = `resource${resources - 1}`;
  const got = await fetch(`${server.url}/${last}/abc`);
  await got.text();
  const body = JSON.stringify({ name: "Lamp", owner, tags: [] });
  const posted = await fetch(`${server.url}/${last}/add`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  await posted.text();
  if (got.status !== 200 || posted.status !== 200) {
    throw new Error(`GET ${got.status}, POST ${posted.status}`);
  }
  await phase("first requests");
  await server.close();
}
console.log(JSON.stringify(wall));
