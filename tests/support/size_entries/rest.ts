/**
 * A REST edge worker (`export default { fetch }`): the tiny tree over HTTP
 * with its OpenAPI document at `/openapi.json`.
 *
 * @module
 */
import { createFetch } from "@ramify/api/http";
import { tree } from "./rest_tree.ts";

/** The worker: a module a runtime such as workerd calls per request. */
export default { fetch: createFetch(tree, { document: { title: "Edge", version: "1.0.0" } }) };
