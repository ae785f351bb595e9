/**
 * The command-line projection: {@linkcode runCli} runs one command line
 * against a tree (in process, or on a server with `--url`), {@linkcode mainCli}
 * is the one line a script needs, and {@linkcode completionScript} gives shell
 * completion. The grammar is in `docs/cli.md`.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { runCli } from "@ramify/api/cli";
 *
 * const tree = api({ books: api({ list: op(() => [], { tags: { readOnly: true } }) }) });
 * const code = await runCli(tree, ["books", "list"], { name: "bookstore" });
 * ```
 *
 * @module
 */
export { mainCli, runCli } from "./run.ts";
export type { CliOptions } from "./run.ts";
export { completionScript, completionsFor } from "./completion.ts";
export { processIo } from "./io.ts";
export type { CliIo } from "./io.ts";
