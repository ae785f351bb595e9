/**
 * Forms no other site can forge: the one decision, shared by the REST body
 * reader (`request.ts`) and GraphQL over HTTP (`graphql/server/http.ts`), of
 * whether a request is a form another site made a browser send.
 *
 * A browser sends a `POST` with a form's body type (urlencoded, multipart,
 * `text/plain`, or none) to any site without asking it first, cookies
 * included; only the answer is hidden from the page. Such a request is
 * refused when the browser says it comes from another site: `Sec-Fetch-Site`
 * `cross-site` or `same-site`, else an `Origin` (`null` included) that is not
 * the request's own (its URL's origin, or its `Host`). Other verbs and JSON
 * are preflighted, so CORS governs them; a request that names no origin at
 * all comes from no browser's page (or an old browser's), and goes through.
 *
 * @module
 */

import { HttpError } from "../tree/http_error.ts";
import { mediaType } from "./body.ts";

/**
 * Checks one request: the `403` to answer a forged form with, or `undefined`.
 *
 * @example
 * ```ts
 * import { formGuard, type FormGuard } from "./csrf.ts";
 *
 * const guard: FormGuard = formGuard();
 * console.log(guard(new Request("https://api.example/", { method: "POST" }))); // undefined
 * ```
 */
export type FormGuard = (request: Request) => HttpError | undefined;

/** Body types a page may send to another site without a preflight ("" for none). */
const FORM_TYPES: ReadonlySet<string> = new Set([
  "",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
]);

/**
 * The check of a server that trusts `trustedOrigins` (written as origins,
 * `https://app.example.com`) to post forms to it besides its own.
 *
 * @example
 * ```ts
 * import { formGuard } from "./csrf.ts";
 *
 * const guard = formGuard(["https://app.example.com"]);
 * const forged = new Request("https://api.example.com/books/add", {
 *   method: "POST",
 *   headers: { origin: "https://evil.example", "content-type": "text/plain" },
 *   body: "title=Dune",
 * });
 * console.log(guard(forged)?.status); // 403
 * ```
 *
 * @throws {TypeError} for a trusted origin that is not an origin (a path, a trailing slash).
 */
export function formGuard(trustedOrigins: readonly string[] = []): FormGuard {
  const trusted = new Set(trustedOrigins.map(originOf));
  return (request) => {
    if (request.method !== "POST") return undefined;
    const headers = request.headers;
    if (!FORM_TYPES.has(mediaType(headers.get("content-type")))) return undefined;
    // Set by the browser, never by the page: its word on where the request comes from.
    const site = headers.get("sec-fetch-site");
    if (site === "same-origin" || site === "none") return undefined;
    const origin = headers.get("origin");
    if (origin !== null && trusted.has(origin)) return undefined;
    if (site !== "cross-site" && site !== "same-site") {
      if (origin === null || (origin !== "null" && isOwn(origin, request))) return undefined;
    }
    const from = origin ?? `Sec-Fetch-Site: ${site}`;
    return new HttpError(
      403,
      `A form from another site (${from}) may not be sent here (cross-site request forgery); ` +
        "send JSON, or list the origin in trustedOrigins",
    );
  };
}

function originOf(text: string): string {
  let origin: string | undefined;
  try {
    origin = new URL(text).origin;
  } catch {
    // Reported below with the rest.
  }
  if (origin === undefined || origin === "null" || origin !== text.toLowerCase()) {
    throw new TypeError(
      `trustedOrigins: ${JSON.stringify(text)} is not an origin; write it as scheme://host[:port]${
        origin === undefined || origin === "null" ? "" : ` (${origin})`
      }`,
    );
  }
  return origin;
}

/** Whether an `Origin` is the request's own: its URL's origin, or the host it was sent to. */
function isOwn(origin: string, request: Request): boolean {
  const url = request.url;
  if (url.startsWith(origin) && (url.length === origin.length || url[origin.length] === "/")) {
    return true;
  }
  // Behind a proxy the URL may name the inner address; `Host` names the one the browser used.
  const host = request.headers.get("host");
  return host !== null && origin.slice(origin.indexOf("://") + 3) === host.toLowerCase();
}
