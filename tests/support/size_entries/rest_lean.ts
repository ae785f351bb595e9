/**
 * The lean REST edge worker: the tiny tree's routes alone (`toRouter` over its
 * projection), no OpenAPI document, no long-running leaf, no OAuth guard.
 * Against it, `rest.ts` shows what serving the document adds.
 *
 * @module
 */
import { toRouter } from "@ramify/api/http";
import { httpProjection } from "@ramify/api/http/dx";
import { tree } from "./rest_tree.ts";

/** The worker: a module a runtime such as workerd calls per request. */
export default { fetch: toRouter(httpProjection(tree)) };
