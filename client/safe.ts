/**
 * `safe()`: a typed client call as a value instead of a rejection, so that its
 * declared errors narrow by `code` with no `try` and no cast.
 *
 * @example
 * ```ts
 * import { api, createClient, createFetch, LeafError, op, safe } from "@ramify/api";
 * import { z } from "zod";
 *
 * const tree = api({
 *   reserve: op(() => {
 *     throw new LeafError("TAKEN", { data: { by: "ann" } });
 *   }, { errors: { TAKEN: { status: 409, data: z.object({ by: z.string() }) } } }),
 * });
 * const client = createClient(tree, { fetch: createFetch(tree) });
 * const { error } = await safe(client.reserve());
 * if (error?.code === "TAKEN") console.log(error.data.by); // "ann"
 * ```
 *
 * @module
 */

import { ClientError } from "./client_error.ts";
import type { ClientErrorFrom, ClientPromise } from "./client_types.ts";

/**
 * The outcome of a call: its value, or the `ClientError` it failed with.
 *
 * @example
 * ```ts
 * import type { Outcome } from "@ramify/api/client";
 *
 * const done: Outcome<number, Error> = { error: undefined, value: 1 };
 * ```
 */
export type Outcome<T, E> =
  | { readonly error: undefined; readonly value: T }
  | { readonly error: E; readonly value: undefined };

/**
 * Waits for a client call: `{ value }` when it succeeds, `{ error }` when the
 * server answered with an error. Anything else (the network failing, an
 * aborted call) still rejects.
 *
 * @example
 * ```ts
 * import { safe } from "@ramify/api/client";
 *
 * const { error, value } = await safe(Promise.resolve(42));
 * console.log(error, value); // undefined 42
 * ```
 */
export async function safe<T, D = Record<never, never>>(
  call: ClientPromise<T, D>,
): Promise<Outcome<T, ClientErrorFrom<D>>> {
  try {
    return { error: undefined, value: await call };
  } catch (error) {
    if (error instanceof ClientError) {
      return { error: error as ClientErrorFrom<D>, value: undefined };
    }
    throw error;
  }
}
