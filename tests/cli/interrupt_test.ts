// mainCli under Ctrl-C, in a real process: the first SIGINT cancels the call
// (the handler's signal aborts, the command exits 130 with its line), a second
// one exits at once when the handler ignores its signal.
import assert from "node:assert/strict";

/** Runs the interruptible command line, sends SIGINT `times` once it waits; its exit code and stderr. */
async function interrupted(command: string, times: number): Promise<[number, string]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      new URL("./interruptible_cli.ts", import.meta.url).pathname,
      command,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let stderr = "";
  const reading = (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += text;
    }
  })();
  for (let tries = 0; !stderr.includes("waiting"); tries++) {
    if (tries === 500) throw new Error(`gave up waiting for the command to start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (let sent = 0; sent < times; sent++) {
    child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A guard against hangs, not a timing check: a command still running is killed (exit 137).
  const guard = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const { code } = await child.status;
  clearTimeout(guard);
  await reading;
  return [code, stderr];
}

Deno.test("mainCli: Ctrl-C cancels the call, whose signal aborts; exit 130", async () => {
  const [code, stderr] = await interrupted("wait", 1);
  assert.deepEqual([code, stderr], [
    130,
    "waiting\naborted: AbortError\nerror: 499 Client Closed Request\n",
  ]);
});

Deno.test("mainCli: a second Ctrl-C does not wait for a handler that ignores its signal", async () => {
  const [code, stderr] = await interrupted("stubborn", 2);
  assert.deepEqual([code, stderr], [130, "waiting\n"]);
});
