// The GraphQL-over-HTTP transport loads on the handler's first request:
// `createHttpGraphQLServer` checks the tree and the options at once, but its
// module reaches graphql-js only through the dynamic import of the transport,
// so a bundle serving REST beside GraphQL evaluates no GraphQL until asked.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { cors } from "@ramify/api/http";
import { z } from "zod";

interface ModuleInfo {
  readonly specifier: string;
  readonly dependencies?: readonly {
    readonly code?: { readonly specifier: string };
    readonly isDynamic?: boolean;
  }[];
}

/** Every module `entry` imports statically, and those it imports dynamically. */
async function graphOf(entry: string): Promise<{ statics: Set<string>; dynamics: Set<string> }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout));
  const modules = new Map<string, ModuleInfo>(
    (info.modules as ModuleInfo[]).map((module) => [module.specifier, module]),
  );
  const statics = new Set<string>([info.roots[0]]);
  const dynamics = new Set<string>();
  const pending = [info.roots[0] as string];
  while (pending.length > 0) {
    for (const dependency of modules.get(pending.pop()!)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target === undefined) continue;
      if (dependency.isDynamic) {
        dynamics.add(target);
      } else if (!statics.has(target)) {
        statics.add(target);
        pending.push(target);
      }
    }
  }
  return { statics, dynamics };
}

const HTTP = new URL("../../../graphql/transport/http.ts", import.meta.url).href;
const isGraphQLJs = (specifier: string) => /^npm:\/?graphql@/.test(specifier);

Deno.test("lazy transport: createHttpGraphQLServer's module reaches graphql-js only by a dynamic import", async () => {
  const { statics, dynamics } = await graphOf(HTTP);
  assert.deepEqual([...statics].filter(isGraphQLJs), []);
  assert.ok([...dynamics].some((specifier) => specifier.endsWith("/_http_transport.ts")));
  // The transport itself reaches graphql-js: the import is what defers it.
  const transport = await graphOf([...dynamics].find((s) => s.endsWith("/_http_transport.ts"))!);
  assert.ok([...transport.statics].some(isGraphQLJs));
});

const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true } }),
  books: api({
    add: op((input) => ({ id: "1", ...input }), { input: z.object({ title: z.string() }) }),
  }),
});

Deno.test("lazy transport: what is wrong throws when the handler is made, not on a request", () => {
  assert.throws(
    () => createHttpGraphQLServer(tree, { policies: [cors({ origin: "*", credentials: true })] }),
    TypeError,
  );
  assert.throws(
    () => createHttpGraphQLServer(tree, { trustedOrigins: ["https://a.example/path"] }),
    TypeError,
  );
  assert.throws(() => createHttpGraphQLServer(api({ "bad name": op(() => 1) })), Error);
});

Deno.test("lazy transport: many first requests at once wait for the one load and all answer", async () => {
  const handler = createHttpGraphQLServer(tree);
  const answers = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      handler(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: `mutation { booksAdd(title: "t${i}") }` }),
        }),
      )),
  );
  for (const [i, answer] of answers.entries()) {
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { data: { booksAdd: { id: "1", title: `t${i}` } } });
  }
  const other = await handler(new Request("http://localhost/elsewhere"));
  assert.equal(other.status, 404);
  await other.body?.cancel();
});
