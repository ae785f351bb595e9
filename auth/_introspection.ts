// RFC 7662 introspection of opaque tokens, as the resource server's own client (client_secret_basic),
// with a cache keyed by the token's SHA-256 (never the token itself): an answer is kept for
// `cacheTtlMs`, and an active one no longer than its `exp`.

import { IssuerUnavailable } from "./_issuer.ts";
import { sha256 } from "../tree/digest.ts";

/** The answer kept for one token: its claims when active, `undefined` when not. */
interface Kept {
  readonly claims: Readonly<Record<string, unknown>> | undefined;
  readonly until: number;
}

/** Enough entries for a busy server; the oldest goes first past it. */
const MAX_KEPT = 10_000;

export interface IntrospectionSettings {
  readonly endpoint: () => Promise<string>;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly cacheTtlMs: number;
  readonly timeoutMs: number;
}

/** The claims of an active token, `undefined` for one the issuer says is not. */
export type Introspect = (token: string) => Promise<Readonly<Record<string, unknown>> | undefined>;

export function introspector(settings: IntrospectionSettings): Introspect {
  const kept = new Map<string, Kept>();
  const credentials = "Basic " +
    btoa(`${formEncoded(settings.clientId)}:${formEncoded(settings.clientSecret)}`);
  return async (token) => {
    const key = await sha256(token);
    const now = Date.now();
    const hit = kept.get(key);
    if (hit !== undefined && hit.until > now) return hit.claims;
    kept.delete(key);
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(await settings.endpoint(), {
        method: "POST",
        headers: {
          authorization: credentials,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`introspection answered ${response.status}`);
      }
      answer = await response.json();
    } catch (error) {
      if (error instanceof IssuerUnavailable) throw error;
      throw new IssuerUnavailable("introspection endpoint", { cause: error });
    }
    const active = answer?.active === true;
    const exp = typeof answer.exp === "number" ? answer.exp * 1000 : Infinity;
    const claims = active && exp > now ? answer : undefined;
    const until = Math.min(now + settings.cacheTtlMs, claims === undefined ? Infinity : exp);
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, { claims, until });
    return claims;
  };
}

// RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic.
function formEncoded(value: string): string {
  return encodeURIComponent(value).replaceAll("%20", "+");
}
