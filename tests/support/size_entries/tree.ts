/**
 * The tree alone (`api`, `op`), as a shared module of an edge app imports it.
 *
 * @module
 */
export { api, op } from "@ramify/api/tree";
