/**
 * Plain data from outside, handled safely: helpers shared by the tree and the
 * projections. Values that come from outside (request bodies, query strings)
 * pass through here, so keys such as `__proto__` stay ordinary keys and never
 * reach a prototype, and hostile depth is found without recursion.
 *
 * Internal: not a public subpath. Used by the tree (construct, merge), the HTTP
 * server (request reading, coercion), OpenAPI components and both GraphQL
 * sides.
 *
 * @module
 */

/**
 * How deep a client's input may nest by default on every surface
 * (`maxInputDepth`): the input object is level 1.
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * Whether a value nests objects or arrays deeper than `max` levels, walked
 * iteratively so that hostile depth cannot exhaust the stack.
 */
export function nestsDeeper(root: unknown, max: number): boolean {
  return flawOf(root, max) === "deep";
}

/**
 * The first flaw of a value parsed from outside: nesting deeper than `max`
 * levels (the root is level 1), or a key or string that `badText` refuses.
 * One iterative walk (hostile depth cannot exhaust the stack) that allocates
 * nothing for a flat object, the most common body.
 */
export function flawOf(
  root: unknown,
  max: number,
  badText?: (text: string) => boolean,
): "deep" | "text" | undefined {
  if (typeof root !== "object" || root === null) return undefined;
  let values: object[] | undefined;
  let depths: number[] | undefined;
  let value: object = root;
  let depth = 1;
  for (;;) {
    if (depth > max) return "deep";
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (typeof child === "string") {
          if (badText?.(child)) return "text";
        } else if (typeof child === "object" && child !== null) {
          (values ??= []).push(child);
          (depths ??= []).push(depth + 1);
        }
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        // Own keys only, should anything have made Object.prototype enumerable.
        if (!Object.hasOwn(record, key)) continue;
        if (badText?.(key)) return "text";
        const child = record[key];
        if (typeof child === "string") {
          if (badText?.(child)) return "text";
        } else if (typeof child === "object" && child !== null) {
          (values ??= []).push(child);
          (depths ??= []).push(depth + 1);
        }
      }
    }
    if (values === undefined || values.length === 0) return undefined;
    value = values.pop()!;
    depth = depths!.pop()!;
  }
}

/** A plain object: made by a literal or `Object.create(null)`, not an array or class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Assigns as an own data property, so a key like `__proto__` stays a key. */
export function setOwn(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): void {
  // Only `__proto__` has an inherited setter on a plain object; defining every
  // key would be safe too, but several times slower on hot paths.
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

/** Describes a value's kind for error messages without printing the value. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Whether a value can be iterated with `for await` (a stream of results). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}
