/**
 * Dates have no JSON form: on the wire and in the documents they are RFC 3339
 * date-time strings. A schema library whose JSON Schema converter refuses them
 * (zod's `z.date()`) is asked to describe them as such strings, and the places
 * where it did are kept, so that the call path can turn the strings a client
 * sent back into `Date`s before the schema sees them.
 *
 * Internal: not a public subpath. Used by the schema layer, the call path, the
 * clients (which revive the dates an output schema promises) and GraphQL's
 * `DateTime` scalar, which accepts what the call path revives and no more.
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

// A string that is not an RFC 3339 date-time stays a string, for the schema to
// refuse: `new Date` alone would take "1" (2001, in the server's time zone) and
// roll 2026-02-30 over to March 2, where GraphQL refuses both.
function asDate(text: string): unknown {
  return isDateTime(text) ? new Date(text) : text;
}

const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether a string is an RFC 3339 `date-time` naming a real day and time: the
 * one form of a date on every wire.
 *
 * @example
 * ```ts
 * import { isDateTime } from "./dates.ts";
 *
 * console.log(isDateTime("2026-05-01T12:30:00Z"), isDateTime("2026-02-30T00:00:00Z")); // true false
 * ```
 */
export function isDateTime(value: string): boolean {
  const match = RFC_3339.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[7] !== undefined && (Number(match[7]) > 23 || Number(match[8]) > 59)) return false;
  return true;
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
