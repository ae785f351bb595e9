/**
 * What every server's options share: the type of `onError`, and the check
 * that refuses, when a server is made, an option key it does not know (a
 * misspelt or renamed option is an error then, not a limit silently
 * unapplied).
 *
 * @example
 * ```ts
 * import { checkOptions } from "./options.ts";
 *
 * checkOptions("createThing", { timeoutMs: 5_000 }, ["timeoutMs", "onError"]);
 * ```
 *
 * @module
 */

/**
 * Observes a fault (a crash, never a caller's mistake, a declared error, a
 * cancellation or a timeout) before the masked answer goes out: the `onError`
 * option of every server. It is given the request that carried the call,
 * where there is one (MCP over stdio has none). What it throws is ignored.
 *
 * @example
 * ```ts
 * import type { ErrorObserver } from "@ramify/api/tree";
 *
 * const onError: ErrorObserver = (error, request) =>
 *   console.error(request === undefined ? "crashed:" : `${request.method} ${request.url}:`, error);
 * ```
 */
export type ErrorObserver = (error: unknown, request?: Request) => void;

/**
 * The option keys a server knows, listed once: the type refuses a list that
 * leaves out a key of the options interface `T` (or names one it lacks).
 *
 * @example
 * ```ts
 * import { knownKeys } from "./options.ts";
 *
 * interface PingOptions {
 *   readonly timeoutMs?: number;
 *   readonly onError?: (error: unknown) => void;
 * }
 * const PING_OPTIONS = knownKeys<PingOptions>()(["timeoutMs", "onError"]);
 * ```
 */
export function knownKeys<T>(): <const K extends readonly (keyof T & string)[]>(
  keys:
    & K
    & ([Exclude<keyof T, K[number]>] extends [never] ? unknown
      : { readonly missing: Exclude<keyof T, K[number]> }),
) => K {
  return (keys) => keys;
}

/**
 * Refuses an options object holding a key that `known` does not list, with a
 * `TypeError` naming the caller and the key, and the closest known key where
 * one is close; an option that became something else (`moved`: what it is
 * now) is refused saying so. Keys whose value is `undefined` count as given:
 * `{ timeOut: undefined }` is still a misspelling.
 *
 * @example
 * ```ts
 * import { checkOptions } from "./options.ts";
 *
 * try {
 *   checkOptions("createThing", { handlerTimeoutMs: 5_000 }, ["timeoutMs"]);
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // createThing: unknown option "handlerTimeoutMs" (did you mean "timeoutMs"?)
 * }
 * ```
 *
 * @throws {TypeError} for an unknown key.
 */
export function checkOptions(
  caller: string,
  opts: object | undefined,
  known: readonly string[],
  moved: Readonly<Record<string, string>> = {},
): void {
  if (opts === undefined || opts === null) return;
  for (const key of Object.keys(opts)) {
    if (!known.includes(key) && Object.hasOwn(moved, key)) {
      throw new TypeError(`${caller}: the option "${key}" is now ${moved[key]}`);
    }
    if (!known.includes(key)) {
      const near = closest(key, known);
      throw new TypeError(
        `${caller}: unknown option "${key}"${
          near === undefined ? "" : ` (did you mean "${near}"?)`
        }`,
      );
    }
  }
}

/**
 * The known key nearest `key`: the same but for case, else the longest one
 * that it contains or that contains it (`handlerTimeoutMs`, `timeoutMs`), else
 * one a few edits away.
 */
function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((name) => name.toLowerCase() === lower);
  if (same !== undefined) return same;
  const within = known
    .filter((name) => name.length >= 4)
    .filter((name) => lower.includes(name.toLowerCase()) || name.toLowerCase().includes(lower))
    .sort((a, b) => b.length - a.length);
  if (within.length > 0 && lower.length >= 4) return within[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 4)) + 1;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/**
 * The Levenshtein distance between two strings: what "did you mean" is
 * measured by, here and on the command line.
 *
 * @example
 * ```ts
 * import { editDistance } from "./options.ts";
 *
 * console.log(editDistance("timeotMs", "timeoutMs")); // 1
 * ```
 */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j] + 1,
        next[j - 1] + 1,
        row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length];
}
