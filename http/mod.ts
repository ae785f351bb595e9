/**
 * The HTTP projection: the verb bundles today; router, OpenAPI and client land
 * with the HTTP work (issue 3).
 *
 * @example
 * ```ts
 * import { http } from "@ramify/api/http";
 *
 * console.log(http.get.tags); // { readOnly: true }
 * ```
 *
 * @module
 */
export { http } from "./verbs.ts";
export type { HttpHelpers, MoveBundle, VerbBundle } from "./verbs.ts";
