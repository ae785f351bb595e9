/**
 * The REST edge worker of `rest.ts` with two request policies listed: CORS
 * and a rate limit. Against `rest.ts`, what listing them adds to a bundle.
 *
 * @module
 */
import { cors, createFetch, rateLimit, tokenBucket } from "@ramify/api/http";
import { tree } from "./rest_tree.ts";

/** The worker: a module a runtime such as workerd calls per request. */
export default {
  fetch: createFetch(tree, {
    document: { title: "Edge", version: "1.0.0" },
    policies: [
      cors({ origin: "https://app.example" }),
      rateLimit({ limiter: tokenBucket({ capacity: 100, refillPerSecond: 10 }) }),
    ],
  }),
};
