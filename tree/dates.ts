/**
 * Dates have no JSON form: on the wire and in the documents they are RFC 3339
 * date-time strings. A schema library whose JSON Schema converter refuses them
 * (zod's `z.date()`) is asked to describe them as such strings, and the places
 * where it did are kept, so that the call path can turn the strings a client
 * sent back into `Date`s before the schema sees them.
 *
 * Internal: not a public subpath. Used by the schema layer, the call path and
 * the clients (which revive the dates an output schema promises).
 *
 * @module
 */

/** Where in a value a date sits: `properties`/name steps and `items` for every element. */
export type DatePath = readonly string[];

/** The JSON Schema of a date, as every surface writes it. */
const DATE_TIME = { type: "string", format: "date-time" } as const;

/**
 * The `libraryOptions` a vendor's converter needs to describe dates, recording
 * where each one was found; `undefined` for libraries that need none.
 */
export function dateOptions(
  vendor: string,
  found: DatePath[],
): Record<string, unknown> | undefined {
  if (vendor !== "zod") return undefined;
  return {
    unrepresentable: (
      site: { zodSchema?: { _zod?: { def?: { type?: unknown } } }; path?: unknown },
    ) => {
      if (site.zodSchema?._zod?.def?.type !== "date") return "throw";
      found.push(Array.isArray(site.path) ? site.path.map(String) : []);
      return { ...DATE_TIME };
    },
  };
}

/** The value with the date-time strings at `paths` turned into `Date`s (in place, where it is an object). */
export function reviveDates(value: unknown, paths: readonly DatePath[]): unknown {
  let root = value;
  for (const path of paths) root = revive(root, path, 0);
  return root;
}

function revive(value: unknown, path: DatePath, at: number): unknown {
  if (at === path.length) return typeof value === "string" ? asDate(value) : value;
  const step = path[at];
  if (step === "items") {
    if (!Array.isArray(value)) return value;
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], path, at + 1);
    return value;
  }
  if (step === "properties" && at + 1 < path.length) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const key = path[at + 1];
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, key)) record[key] = revive(record[key], path, at + 2);
    return value;
  }
  // `anyOf`/`oneOf` members and other keywords do not move within the value.
  return revive(value, path, at + 1);
}

// A string that is not a date stays a string, for the schema to refuse.
function asDate(text: string): unknown {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date;
}

/**
 * What a value of type `T` becomes through JSON (`JSON.parse(JSON.stringify(v))`):
 * a `Date` is its ISO text, `undefined` and functions are dropped, a `Map` or
 * `Set` is `{}`. Types in `Kept` stay as they are: the places a schema's dates
 * are revived. `unknown` stays `unknown`.
 *
 * @example
 * ```ts
 * import type { JsonOf } from "./dates.ts";
 *
 * const sent: JsonOf<{ at: Date; note?: string }> = { at: "2026-01-01T00:00:00.000Z" };
 * const revived: JsonOf<{ at: Date }, Date> = { at: new Date() };
 * ```
 */
export type JsonOf<T, Kept = never> = unknown extends T ? unknown
  : T extends Kept ? T
  : T extends string | number | boolean | null ? T
  : T extends { toJSON(): infer J } ? JsonOf<J, Kept>
  : T extends Dropped ? never
  : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown> ? Record<string, never>
  : T extends readonly (infer U)[] ? JsonSlot<U, Kept>[]
  : T extends object ? JsonObject<T, Kept>
  : never;

/** What JSON leaves out of an object (and writes as `null` in an array). */
type Dropped = undefined | symbol | ((...args: never[]) => unknown);

type JsonSlot<T, Kept> = [JsonOf<T, Kept>] extends [never] ? null
  : JsonOf<T, Kept> | (undefined extends T ? null : never);

type JsonObject<T, Kept> = Flat<
  & {
    [
      K in keyof T as K extends string
        ? undefined extends T[K] ? never : [T[K]] extends [Dropped] ? never : K
        : never
    ]: JsonOf<T[K], Kept>;
  }
  & {
    [
      K in keyof T as K extends string
        ? undefined extends T[K] ? [Exclude<T[K], undefined>] extends [never] ? never : K
        : never
        : never
    ]?: JsonOf<Exclude<T[K], undefined>, Kept>;
  }
>;

type Flat<T> = { [K in keyof T]: T[K] };
