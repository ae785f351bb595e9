/**
 * The GraphQL benchmark as instruction counts: each contender of
 * `graphql_app.ts` (ours, the bare graphql-jit handler, "base") in its own
 * process under valgrind's callgrind, called in process with a fresh
 * `Request` per call (its making included) and the body read in full; the
 * instructions per request after a warm-up, the median of `runs` processes.
 * Time on a shared machine moves with the neighbours; this count does not
 * (V8 single-threaded: the same code and requests count the same within a
 * fraction of a percent).
 *
 *   deno run -A bench/graphql_count.ts [requests=2000] [contenders=ours,jit,base] [runs=1]
 *
 * valgrind (Debian package) is installed when missing.
 *
 * @module
 */

import {
  callgrindArgs,
  callgrindControl,
  countedInstructions,
  ensureValgrind,
} from "./_callgrind.ts";
import { base, cases, countTable, type Handler, jit, ours } from "./graphql_app.ts";

const WARM_UP = 3_000;
const handlers: Record<string, Handler> = { ours, jit, base };

/** In the process under callgrind: warm up, then count `requests` calls. */
async function child(who: string, name: string, requests: number): Promise<void> {
  const handler = handlers[who];
  const make = cases[name];
  const run = async (times: number) => {
    for (let i = 0; i < times; i++) {
      const response = await handler(make());
      await response.text();
    }
  };
  await run(WARM_UP);
  // Turning instrumentation on drops the translated code: warm up again before counting.
  await callgrindControl(Deno.pid, "-i", "on");
  await run(1_000);
  await callgrindControl(Deno.pid, "-z");
  await run(requests);
  await callgrindControl(Deno.pid, "-d");
}

/** The instructions per request of one contender on one request, in a fresh process. */
async function count(who: string, name: string, requests: number): Promise<number> {
  const dir = await Deno.makeTempDir();
  try {
    const done = await new Deno.Command("valgrind", {
      args: callgrindArgs(dir, [
        Deno.execPath(),
        "run",
        "-A",
        "--v8-flags=--single-threaded",
        new URL(import.meta.url).pathname,
        "child",
        who,
        name,
        String(requests),
      ]),
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!done.success) throw new Error(new TextDecoder().decode(done.stderr).slice(-2_000));
    return await countedInstructions(dir) / requests;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (Deno.args[0] === "child") {
  await child(Deno.args[1], Deno.args[2], Number(Deno.args[3]));
} else {
  const requests = Number(Deno.args[0] ?? 2_000);
  const contenders = (Deno.args[1] ?? "ours,jit,base").split(",");
  const runs = Number(Deno.args[2] ?? 1);
  await ensureValgrind();
  await countTable(contenders, async (who, name) => {
    const counts: number[] = [];
    for (let run = 0; run < runs; run++) counts.push(await count(who, name, requests));
    return counts.sort((a, b) => a - b)[Math.floor(counts.length / 2)];
  });
}
