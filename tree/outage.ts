/**
 * A store out of reach (Redis down, restarting, too slow) is an outage, not a
 * crash: each request it refuses is a correct `503`, and a log line with a
 * stack for every one of them would bury the one thing worth saying. So a
 * store rejects with {@linkcode StoreUnreachable} (`isUnreachable` knows it,
 * also as another error's cause), and the servers' default `onError`
 * (`logFault`) writes one line when an outage begins (`storeOutage`) and one
 * when the store is back; every other fault is logged as before.
 *
 * Internal: not a public subpath. Used by the Redis stores (redis/), the
 * default `onError` of the HTTP router, GraphQL and MCP, and the task runtime.
 *
 * @example
 * ```ts
 * import { isUnreachable, StoreUnreachable } from "./outage.ts";
 *
 * const error = new StoreUnreachable("Redis did not answer within 1000 ms");
 * console.log(isUnreachable(error), isUnreachable(new TypeError("a bug"))); // true false
 * ```
 *
 * @module
 */

/** Marks an unreachable store's error, also where another copy of this module made it. */
const MARK = Symbol.for("ramify.storeUnreachable");

/**
 * The store could not be asked: it is down, restarting, or did not answer in
 * time. The request is refused (`503`), and nothing crashed.
 *
 * @example
 * ```ts
 * import { StoreUnreachable } from "./outage.ts";
 *
 * const offline = new Error("The client is offline");
 * const error = new StoreUnreachable("Redis is unreachable", { cause: offline });
 * console.log(error.name, error.cause === offline); // StoreUnreachable true
 * ```
 */
export class StoreUnreachable extends Error {
  override readonly name = "StoreUnreachable";
  readonly [MARK] = true;
}

/**
 * Whether `error` says that a store is out of reach: a {@linkcode StoreUnreachable},
 * or an error caused by one (a few levels of `cause`).
 *
 * @example
 * ```ts
 * import { isUnreachable, StoreUnreachable } from "./outage.ts";
 *
 * const wrapped = new Error("could not start the task", { cause: new StoreUnreachable("down") });
 * console.log(isUnreachable(wrapped)); // true
 * ```
 */
export function isUnreachable(error: unknown): boolean {
  let seen: unknown = error;
  for (let depth = 0; depth < 5 && typeof seen === "object" && seen !== null; depth++) {
    if ((seen as { [MARK]?: unknown })[MARK] === true) return true;
    seen = (seen as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Says when a store's outage begins and ends, once each: `unreachable` for
 * every refused request (only the first of an outage writes), `reachable` when
 * the store answers again (only after an outage). A store that never says it is
 * back (one of your own) counts as back once `quietMs` pass without a refusal,
 * so its next outage is logged too.
 *
 * @example
 * ```ts
 * import { outageLog, StoreUnreachable } from "./outage.ts";
 *
 * const lines: string[] = [];
 * const outage = outageLog((line) => lines.push(line));
 * for (let i = 0; i < 3; i++) outage.unreachable(new StoreUnreachable("Redis is unreachable"));
 * outage.reachable();
 * console.log(lines.length); // 2
 * ```
 */
export interface OutageLog {
  /** A request was refused because the store is out of reach. */
  unreachable(error: unknown): void;
  /** The store answers again. */
  reachable(): void;
}

/**
 * An {@linkcode OutageLog} writing its lines with `write`.
 *
 * @example
 * ```ts
 * import { outageLog } from "./outage.ts";
 *
 * const outage = outageLog((line) => console.warn(line), { quietMs: 30_000 });
 * outage.reachable(); // writes nothing: there was no outage
 * ```
 */
export function outageLog(
  write: (line: string) => void = (line) => console.error(line),
  { quietMs = 60_000 }: { readonly quietMs?: number } = {},
): OutageLog {
  // When the last refusal was, while an outage lasts; undefined while the store is reachable.
  let lastRefusal: number | undefined;
  return {
    unreachable(error) {
      const now = Date.now();
      const ongoing = lastRefusal !== undefined && now - lastRefusal < quietMs;
      lastRefusal = now;
      if (ongoing) return;
      write(
        `ramify: the store is unreachable (${
          describe(error)
        }); requests are refused with 503 until it is back`,
      );
    },
    reachable() {
      if (lastRefusal === undefined) return;
      lastRefusal = undefined;
      write("ramify: the store is reachable again");
    },
  };
}

/**
 * The process's one outage log, on standard error: every server's default
 * `onError` and every Redis connection share it, so one outage is one line
 * however many surfaces and requests it refuses.
 *
 * @example
 * ```ts
 * import { storeOutage } from "./outage.ts";
 *
 * storeOutage.reachable(); // what a store says once it answers again
 * ```
 */
export const storeOutage: OutageLog = outageLog();

/**
 * A server's default `onError`: an unreachable store goes to
 * {@linkcode storeOutage} (one line per outage); any other fault is written
 * after `line`, with its stack.
 *
 * @example
 * ```ts
 * import { logFault } from "./outage.ts";
 *
 * const onError = (error: unknown) => logFault("ramify: MCP tool crashed:", error);
 * ```
 */
export function logFault(line: string, error: unknown): void {
  if (isUnreachable(error)) storeOutage.unreachable(error);
  else console.error(line, error);
}

/** `Name: message` of the deepest cause, where a store's own error says what happened. */
function describe(error: unknown): string {
  let inner: unknown = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (inner as { cause?: unknown } | null)?.cause;
    if (!(cause instanceof Error)) break;
    inner = cause;
  }
  if (!(inner instanceof Error)) return String(inner);
  // node-redis's errors leave `name` "Error": their class says which one.
  const name = inner.name === "Error" ? inner.constructor.name : inner.name;
  return `${name}: ${inner.message}`;
}
