/**
 * The verb-helper bundles: `http.get`, `http.post`, `http.put`, `http.patch`,
 * `http.delete`, `http.head` and `http.options` are plain meta values (not
 * wrappers) that pin a leaf's verb and carry the tags the verb implies, and
 * `http.moveTo(path)` repositions a leaf in the route tree.
 *
 * @example
 * ```ts
 * import { op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const remove = op(({ id }: { id: string }) => undefined, http.delete);
 * console.log(remove.meta.tags); // { destructive: true, idempotent: true }
 * ```
 *
 * @module
 */

import type { HttpDirective, HttpVerb, Tags } from "../tree/node.ts";

/**
 * A verb bundle: both directives for one verb and the tags it implies. A type
 * alias (not an interface) so that it is assignable to any meta contribution.
 *
 * @example
 * ```ts
 * import type { VerbBundle } from "@ramify/api/http/verbs";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const bundle: VerbBundle = http.get;
 * ```
 */
export type VerbBundle = {
  readonly tags: Tags;
  readonly http: { readonly directives: readonly HttpDirective[] };
};

/**
 * What `http.moveTo(path)` returns: a meta value holding one `moveTo` directive.
 *
 * @example
 * ```ts
 * import type { MoveBundle } from "@ramify/api/http/verbs";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const up: MoveBundle = http.moveTo("..");
 * ```
 */
export type MoveBundle = {
  readonly http: { readonly directives: readonly HttpDirective[] };
};

/**
 * The shape of {@linkcode http}.
 *
 * @example
 * ```ts
 * import type { HttpHelpers } from "@ramify/api/http/verbs";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const helpers: HttpHelpers = http;
 * ```
 */
export interface HttpHelpers {
  /** GET, readOnly. */
  readonly get: VerbBundle;
  /** POST, no tags. */
  readonly post: VerbBundle;
  /** PUT, idempotent. */
  readonly put: VerbBundle;
  /** PATCH, no tags. */
  readonly patch: VerbBundle;
  /** DELETE, destructive and idempotent. */
  readonly delete: VerbBundle;
  /** HEAD, readOnly. */
  readonly head: VerbBundle;
  /** OPTIONS, readOnly. */
  readonly options: VerbBundle;
  /**
   * Repositions a leaf with a relative path, resolved against the leaf's own
   * position: `..` goes up to the parent, `../name` renames, `*` pushes a
   * wildcard segment (`*name` names its capture). See docs/http.md.
   */
  moveTo(path: string): MoveBundle;
}

function bundle(verb: HttpVerb, tags: Tags): VerbBundle {
  return Object.freeze({
    tags: Object.freeze({ ...tags }),
    http: Object.freeze({
      directives: Object.freeze([
        Object.freeze({ kind: "verb", value: verb } as const),
        Object.freeze({ kind: "method", value: verb } as const),
      ]),
    }),
  });
}

const MOVE_SEGMENT = /^(?:\.\.|\.|\*[^/?#{}\s]*|[^/?#{}\s]+)$/;

/**
 * The verb bundles and the move directive.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const books = api({
 *   list: op(() => [], http.get),
 *   rename: op(({ id }: { id: string }) => id, http.patch, http.moveTo("..")),
 * });
 * ```
 */
export const http: HttpHelpers = Object.freeze({
  get: bundle("GET", { readOnly: true }),
  post: bundle("POST", {}),
  put: bundle("PUT", { idempotent: true }),
  patch: bundle("PATCH", {}),
  delete: bundle("DELETE", { destructive: true, idempotent: true }),
  head: bundle("HEAD", { readOnly: true }),
  options: bundle("OPTIONS", { readOnly: true }),
  moveTo(path: string): MoveBundle {
    if (
      typeof path !== "string" || path === "" || !path.split("/").every((s) => MOVE_SEGMENT.test(s))
    ) {
      throw new TypeError(
        `http.moveTo(): "${
          String(path)
        }" is not a relative path of "..", ".", "*", "*name" and name segments joined by "/"`,
      );
    }
    return Object.freeze({
      http: Object.freeze({
        directives: Object.freeze([Object.freeze({ kind: "moveTo", value: path } as const)]),
      }),
    });
  },
});
