// The CLI in a real terminal: tmux runs the example's command line in a
// pseudo-terminal, the test reads the screen, answers the prompt with keys,
// and reads the outcome. A person at a terminal sees the same.
import assert from "node:assert/strict";
import { ensureCommands } from "../support/commands.ts";

const CLI = new URL("../../examples/bookstore_cli.ts", import.meta.url).pathname;
const BYTES_CLI = new URL("./bytes_cli.ts", import.meta.url).pathname;

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("tmux", { args: ["-L", socket, ...args] }).output();
  if (!output.success) {
    throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** Reads the screen until `pattern` shows; gives up after 20 s (a guard against hangs). */
async function screenUntil(socket: string, pattern: RegExp): Promise<string> {
  let screen = "";
  for (let tries = 0; tries < 400; tries++) {
    screen = await tmux(socket, "capture-pane", "-p", "-t", "cli");
    if (pattern.test(screen)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the screen never showed ${pattern}:\n${screen}`);
}

/** Runs the command line in a fresh terminal, keeps the screen after it ends. */
async function inTerminal(
  args: string,
  drive: (socket: string) => Promise<void>,
  script = CLI,
) {
  const socket = `ramify-${crypto.randomUUID()}`;
  const command =
    `"${Deno.execPath()}" run -A --quiet "${script}" ${args}; echo "exit=$?"; sleep 60`;
  await tmux(socket, "new-session", "-d", "-s", "cli", "-x", "120", "-y", "40", command);
  try {
    await drive(socket);
  } finally {
    await tmux(socket, "kill-server").catch(() => "");
  }
}

const missing = await ensureCommands({ tmux: "tmux" });
const ignore = missing.length > 0;
if (ignore) console.warn("cli terminal tests: tmux is not installed and could not be; skipped");

Deno.test({
  name: "cli in a terminal: a destructive command asks; y runs it",
  ignore,
  fn: () =>
    inTerminal("books 1 remove", async (socket) => {
      await screenUntil(socket, /"books 1 remove" is destructive\. Proceed\? \[y\/N\]/);
      await tmux(socket, "send-keys", "-t", "cli", "y", "Enter");
      const screen = await screenUntil(socket, /exit=\d/);
      assert.match(screen, /Proceed\? \[y\/N\] y\nexit=0/);
    }),
});

Deno.test({
  name: "cli in a terminal: anything but yes aborts",
  ignore,
  fn: () =>
    inTerminal("books 1 remove", async (socket) => {
      await screenUntil(socket, /Proceed\? \[y\/N\]/);
      await tmux(socket, "send-keys", "-t", "cli", "n", "Enter");
      const screen = await screenUntil(socket, /exit=\d/);
      assert.match(screen, /Proceed\? \[y\/N\] n\naborted\nexit=1/);
    }),
});

Deno.test({
  name: "cli in a terminal: a readOnly command never asks, and prints pretty JSON",
  ignore,
  fn: () =>
    inTerminal("books 1 read", async (socket) => {
      const screen = await screenUntil(socket, /exit=\d/);
      assert.doesNotMatch(screen, /Proceed/);
      assert.match(screen, /\{\n {2}"id": "1",\n {2}"title": "Dune",\n[\s\S]*\}\nexit=0/);
    }),
});

Deno.test({
  name: "cli in a terminal: a binary result is refused, naming --output",
  ignore,
  fn: () =>
    inTerminal("cover", async (socket) => {
      const screen = await screenUntil(socket, /exit=\d/);
      assert.match(
        screen,
        /^error: the result is binary \(image\/png, 10 bytes\); pass --output <file> to write it, or pipe standard output\nexit=1/m,
      );
    }, BYTES_CLI),
});
