// The guard's refusals, each an HttpError whose WWW-Authenticate every surface sends (RFC 6750
// §3), whose data names what is missing (GraphQL shows it under `extensions.data`), and whose
// message never holds the token.

import { HttpError } from "../tree/http_error.ts";
import type { ProtectedResource } from "../tree/security.ts";

/** RFC 6750's error codes the guard answers with. */
export type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope";

export function refusal(
  resource: ProtectedResource,
  status: 401 | 403,
  detail: string,
  needed: readonly string[],
  error?: BearerError,
): HttpError {
  const scope = needed.length === 0 ? undefined : needed.join(" ");
  return new HttpError(status, detail, {
    headers: { "www-authenticate": resource.challenge({ error, scopes: needed }) },
    data: {
      ...(error === undefined ? {} : { error }),
      ...(scope === undefined ? {} : { scope }),
    },
  });
}

/** The issuer could not be reached: no handler runs, and the client may try again soon. */
export function unavailable(what: string, retryAfterSec: number): HttpError {
  return new HttpError(503, `${what}; try again later`, {
    code: "ISSUER_UNAVAILABLE",
    headers: { "retry-after": String(retryAfterSec) },
  });
}

/** A `WWW-Authenticate: Bearer` value for `resource_metadata` and the scopes needed. */
export function challengeOf(
  metadataUrl: string,
  options: { readonly error?: string; readonly scopes?: readonly string[] } = {},
): string {
  const parts = [
    ...(options.error === undefined ? [] : [`error="${quoted(options.error)}"`]),
    `resource_metadata="${quoted(metadataUrl)}"`,
    ...(options.scopes === undefined || options.scopes.length === 0
      ? []
      : [`scope="${quoted(options.scopes.join(" "))}"`]),
  ];
  return `Bearer ${parts.join(", ")}`;
}

// A quoted-string holds no quote, backslash or line break (RFC 9110 §5.6.4).
function quoted(value: string): string {
  return value.replaceAll(/["\\\r\n]/g, "");
}
