// How long the type checker takes over a typed client of a 1,000-leaf tree: a
// module with 100 resources of 10 schema-typed leaves each, and a program that
// calls through `createClient`. Each iteration is one `deno check` in a fresh
// process, with the type-check cache defeated.
const root = new URL("..", import.meta.url).pathname;
function resource(r: number): string {
  return `  r${r}: api({
    list: op(() => [] as z.infer<typeof Item>[], http.get, { input: Page }),
    add: op((fields) => ({ id: "${r}", ...fields }), { input: Fields, output: Item }),
    search: op(({ q }) => [{ id: q, name: q, count: 0 }], http.get, { input: z.object({ q: z.string() }) }),
    count: op(() => ${r}, http.get),
    ping: op(() => "pong"),
  }, {
    fallback: {
      name: "id${r}",
      subtree: api({
        read: op(({ id${r} }: { id${r}: string }) => ({ id: id${r}, name: "", count: 0 }), http.get),
        replace: op((fields) => ({ id: "", ...fields }), { input: Fields, output: Item }),
        remove: op(() => undefined, http.delete),
        archive: op(({ reason }: { reason?: string }) => ({ archived: true, reason })),
        touch: op(() => Date.now(), { tags: { idempotent: true } }),
      }),
    },
  }),`;
}

const treeSource = (leaves: number) =>
  `import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";
const Page = z.object({ cursor: z.string().optional(), limit: z.number().optional() });
const Item = z.object({ id: z.string(), name: z.string(), count: z.number() });
const Fields = Item.omit({ id: true });
export const tree = api({
${Array.from({ length: leaves / 10 }, (_, r) => resource(r)).join("\n")}
});
`;

const programSource = (leaves: number) =>
  `import { createClient } from "@ramify/api/http";
import { tree } from "./tree.ts";
const client = createClient(tree, { baseUrl: "http://localhost" });
export async function use() {
  const a = await client.r0.add({ name: "x", count: 1 });
  const b = await client.r${leaves / 10 - 1}.id${leaves / 10 - 1}("1").read();
  const c: number = await client.r0.count();
  // @ts-expect-error name is required
  await client.r1.add({ count: 1 });
  return [a.id, b.name, c];
}
`;

for (const leaves of [10, 1_000]) {
  const dir = await Deno.makeTempDir({ prefix: "ramify-types-" });
  await Deno.writeTextFile(`${dir}/tree.ts`, treeSource(leaves));
  Deno.bench({
    name: `deno check: typed client of a ${leaves}-leaf tree`,
    group: "types",
    baseline: leaves === 10,
    n: 3,
    warmup: 0,
    async fn() {
      // A changed source defeats Deno's type-check cache, so every run checks in full.
      await Deno.writeTextFile(
        `${dir}/program.ts`,
        `${programSource(leaves)}// ${crypto.randomUUID()}\n`,
      );
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["check", "--quiet", "--config", `${root}deno.json`, `${dir}/program.ts`],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
    },
  });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
}
