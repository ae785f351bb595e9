/**
 * A worker that answers every request with 200 and nothing else: the floor of
 * a cold start on workerd.
 *
 * @module
 */

/** The worker. */
export default { fetch: (): Response => new Response("ok") };
