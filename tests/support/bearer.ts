// A tree's leaves behind a bearer-token guard whose token names its user (`auth()`,
// `verify` giving `{ id: token }`): the tests' principals "ann" and "bob" by token,
// so that a task, a session or a question is owned by whom the guard established.
import { auth } from "@ramify/api";
import { useAll } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";

/** The guard: any non-empty bearer token is the user it names. */
export const bearerUser = auth({
  from: "bearer",
  verify: (token) => token === "" ? undefined : { id: token },
});

/** `tree` with every leaf behind {@linkcode bearerUser}. */
export function byBearer<T extends Node>(tree: T): T {
  return useAll(tree, bearerUser);
}
