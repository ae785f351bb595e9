/**
 * The `interceptors` client extension: hooks that see or change each request
 * before it is sent, each response after it arrives, and each failure to get
 * one (network error, abort, timeout), which they may turn into a response.
 *
 * It sits inside `retry()` and `timeout()` in the documented order, so the hooks
 * run once per attempt, and a hook that stamps a fresh token or request id
 * does so on every retry:
 *
 * ```
 * extensions: [retry(), timeout(), interceptors(...), logging()]
 * ```
 *
 * Several `interceptors()` compose like any extensions: the outer one's
 * `onRequest` runs first, and its `onResponse` and `onError` last.
 *
 * @example
 * ```ts
 * import { interceptors } from "@ramify/api/http/extensions/interceptors";
 *
 * const extension = interceptors({
 *   onRequest: (request) => {
 *     request.headers.set("authorization", "Bearer token");
 *   },
 * });
 * ```
 *
 * @module
 */

import type { ClientExtension, ClientRequest } from "../extension.ts";

/**
 * The hooks of {@linkcode interceptors}. Each may be one function or an array,
 * run in order, each seeing what the previous one returned.
 *
 * @example
 * ```ts
 * import type { Interceptors } from "@ramify/api/http/extensions/interceptors";
 *
 * const hooks: Interceptors = {
 *   onRequest: [
 *     (request) => {
 *       request.headers.set("x-request-id", crypto.randomUUID());
 *     },
 *     (request) => ({ ...request, url: request.url.replace("http:", "https:") }),
 *   ],
 *   onResponse: (response) => {
 *     console.log(response.status);
 *   },
 *   onError: (error, request) => {
 *     console.error(`${request.method} ${request.url}`, error);
 *   },
 * };
 * ```
 */
export interface Interceptors {
  /**
   * Before sending: change the request in place (`url`, `headers`, `signal`),
   * or return a replacement, such as `{ ...request, url }`.
   */
  readonly onRequest?:
    | ((request: ClientRequest) => ClientRequest | void | Promise<ClientRequest | void>)
    | readonly ((request: ClientRequest) => ClientRequest | void | Promise<ClientRequest | void>)[];
  /**
   * After a response arrives (any status): observe it, or return a replacement.
   * Receives the request as sent.
   */
  readonly onResponse?:
    | ((response: Response, request: ClientRequest) => Response | void | Promise<Response | void>)
    | readonly ((
      response: Response,
      request: ClientRequest,
    ) => Response | void | Promise<Response | void>)[];
  /**
   * When sending rejects, no response having arrived: observe the error, or
   * return a response to recover with (the remaining `onError` hooks are then
   * skipped, and no `onResponse` hook of this extension runs on it). Without a
   * recovery the error is rethrown; a hook that throws replaces it.
   */
  readonly onError?:
    | ((error: unknown, request: ClientRequest) => Response | void | Promise<Response | void>)
    | readonly ((
      error: unknown,
      request: ClientRequest,
    ) => Response | void | Promise<Response | void>)[];
}

/**
 * Runs the given hooks around each request.
 *
 * Errors thrown by `onRequest` or `onResponse` are not handed to `onError`
 * (that hook is for failures to get a response): they reject the call as they
 * are, which is how a hook refuses a request or a response.
 *
 * @param hooks the request, response and error hooks
 * @returns the extension
 *
 * @example Two composed interceptors
 * ```ts
 * import { interceptors } from "@ramify/api/http/extensions/interceptors";
 *
 * const extensions = [
 *   // onRequest first, onResponse last
 *   interceptors({ onRequest: (request) => void request.headers.set("x-outer", "1") }),
 *   // onRequest second, onResponse first
 *   interceptors({
 *     onResponse: async (response) =>
 *       response.status === 204 ? new Response("null", { status: 200 }) : response,
 *   }),
 * ];
 * ```
 */
export function interceptors(hooks: Interceptors): ClientExtension {
  const onRequest = list(hooks.onRequest);
  const onResponse = list(hooks.onResponse);
  const onError = list(hooks.onError);
  return {
    name: "interceptors",
    wrap: (next) => async (original) => {
      let request = original;
      for (const hook of onRequest) request = (await hook(request)) ?? request;
      let response: Response;
      try {
        response = await next(request);
      } catch (error) {
        for (const hook of onError) {
          const recovered = await hook(error, request);
          if (recovered !== undefined) return recovered;
        }
        throw error;
      }
      for (const hook of onResponse) response = (await hook(response, request)) ?? response;
      return response;
    },
  };
}

function list<T>(hooks: T | readonly T[] | undefined): readonly T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks as T];
}
