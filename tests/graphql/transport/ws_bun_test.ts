// GraphQL over WebSocket on Bun.serve with handleBunWebSocket (Bun from npm,
// run on a bundle of our sources).
import assert from "node:assert/strict";
import { connect, within, wsTest } from "./ws_support.ts";

// ---------------------------------------------------------------- Bun

/** The Bun program: our sources bundled by `deno bundle`, so Bun needs no node_modules. */
const BUN_ENTRY = (root: string) => `
import { api, op } from "${new URL("tree/mod.ts", root)}";
import { createGraphQLServer } from "${new URL("graphql/mod.ts", root)}";
import { handleBunWebSocket } from "${new URL("graphql/transport/ws.ts", root)}";

const aborted = (signal) => new Promise((resolve) => signal.addEventListener("abort", resolve));
const tree = api({
  clock: api({
    ticks: op(async function* (_input, ctx) {
      try {
        yield 1;
        yield 2;
        yield 3;
        await aborted(ctx.signal);
      } finally {
        console.log("finally");
      }
    }, { tags: { streaming: true } }),
  }),
});
const handler = handleBunWebSocket(createGraphQLServer(tree));
const server = globalThis.Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: handler.fetch,
  websocket: handler.websocket,
});
console.log("listening " + server.port);
`;

async function run(command: string, args: string[], cwd?: string): Promise<string> {
  const output = await new Deno.Command(command, { args, cwd, stdin: "null" }).output();
  const decoder = new TextDecoder();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${decoder.decode(output.stderr)}`,
    );
  }
  return decoder.decode(output.stdout);
}

/** Lines of a byte stream, one at a time. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let rest = "";
  // Cast: with Node's types in the program (scripts/npm_test), the stream types differ.
  const decoder = new TextDecoderStream() as TransformStream<Uint8Array, string>;
  for await (const chunk of stream.pipeThrough(decoder)) {
    rest += chunk;
    let end;
    while ((end = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, end).trim();
      rest = rest.slice(end + 1);
    }
  }
  if (rest !== "") yield rest.trim();
}

wsTest(
  "Bun.serve with handleBunWebSocket: events arrive, complete closes the generator",
  async () => {
    const root = new URL("../../../", import.meta.url);
    const dir = await Deno.makeTempDir({ prefix: "ramify_bun_ws_" });
    let child: Deno.ChildProcess | undefined;
    let out: AsyncGenerator<string> | undefined;
    try {
      await Deno.writeTextFile(`${dir}/entry.js`, BUN_ENTRY(root.href));
      await within(
        run(Deno.execPath(), [
          "bundle",
          "--quiet",
          "--config",
          new URL("deno.json", root).pathname,
          "--output",
          `${dir}/bundle.js`,
          `${dir}/entry.js`,
        ]),
        "deno bundle",
        120_000,
      );
      // npx fetches Bun from npm when it is not cached; Bun itself then runs directly, so
      // that killing it leaves nothing behind.
      const bun = (await within(
        run("npx", ["-y", "bun@1", "-e", "console.log(process.execPath)"], dir),
        "npx to find Bun",
        300_000,
      )).trim().split("\n").at(-1)!;
      child = new Deno.Command(bun, {
        args: ["run", `${dir}/bundle.js`],
        cwd: dir,
        stdin: "null",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      out = lines(child.stdout);
      const stdout = out;
      const next = async (what: string) => {
        const line = await within(stdout.next(), what, 60_000);
        assert.ok(!line.done, `Bun exited before ${what}`);
        return line.value;
      };
      const listening = await next("Bun to listen");
      const port = Number(/^listening (\d+)$/.exec(listening)?.[1]);
      assert.ok(port > 0, `unexpected output: ${listening}`);

      const plain = await fetch(`http://127.0.0.1:${port}/graphql`);
      assert.equal(plain.status, 426);
      assert.equal(plain.headers.get("upgrade"), "websocket");
      await plain.body?.cancel();

      const { client, dispose } = connect(`ws://127.0.0.1:${port}/graphql`);
      try {
        const values: number[] = [];
        await within(
          (async () => {
            for await (const result of client.iterate({ query: "subscription { clockTicks }" })) {
              values.push((result.data as { clockTicks: number }).clockTicks);
              if (values.length === 3) break; // the client sends `complete`
            }
          })(),
          "Bun's events",
          60_000,
        );
        assert.deepEqual(values, [1, 2, 3]);
        assert.equal(await next("the generator's finally"), "finally");
      } finally {
        await dispose();
      }
    } finally {
      if (child !== undefined) {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
        // Its stdout ends with it.
        await out?.return(undefined);
        await child.status;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
  600_000,
);
