// Tokens a resource server must refuse (issue 45's battery), made for one resource of a running
// provider. Each is wrong in exactly one way: the others are what the provider issues for that
// resource (its claims are copied from a real token), so that a refusal can only be for that one
// reason. Their own test (tests/auth/oidc_provider_test.ts) decodes each to prove it.
import {
  base64url,
  decodeJwt,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import type { OidcProvider } from "./oidc_provider.ts";

/** Each hostile token, by what is wrong with it, beside a good one. */
export interface HostileTokens {
  /** The provider's own token for the resource and scope: accepted, for comparison. */
  readonly valid: string;
  /** `alg: none` and no signature. */
  readonly algNone: string;
  /** Signed by a key the issuer never had, under the `kid` of its signing key. */
  readonly foreignKey: string;
  /** Signed by a key the issuer never had, under a `kid` its JWKS never lists. */
  readonly unknownKid: string;
  /** HS256 with the issuer's public key (PEM) as the secret: the algorithm-confusion attack. */
  readonly symmetric: string;
  /** Signed by the issuer's key, but `iss` names another issuer. */
  readonly wrongIssuer: string;
  /** The provider's own token for another resource (`aud` is `otherResource`). */
  readonly wrongAudience: string;
  /** Signed by the issuer's key, expired an hour ago. */
  readonly expired: string;
  /** Signed by the issuer's key, valid only from an hour on (`nbf`, `iat`). */
  readonly notYetValid: string;
  /** Signed by the issuer's key and otherwise valid, but over 100 KiB (or `hugeBytes`). */
  readonly huge: string;
}

/** The resource `wrongAudience` is for, unless told otherwise: another origin entirely. */
export const OTHER_RESOURCE = "https://other.example/api";

/** The issuer `wrongIssuer` names. */
export const OTHER_ISSUER = "https://issuer.other.example";

/**
 * The size `huge` exceeds unless told otherwise. Deno.serve refuses a request head over about
 * 64 KiB with a bare 400 before any handler runs, so a token this big in a header never reaches
 * the application; `hugeBytes` makes one that does (to see the application's own limit).
 */
export const HUGE_TOKEN_BYTES = 100 * 1024;

export interface HostileOptions {
  /** The scope the tokens carry (default every scope the provider has). */
  readonly scope?: string;
  /** The resource `wrongAudience` is for (OTHER_RESOURCE). */
  readonly otherResource?: string;
  /** The size `huge` exceeds (HUGE_TOKEN_BYTES). */
  readonly hugeBytes?: number;
}

/**
 * Hostile tokens for `resource`, signed by the provider's signing key of the moment where they
 * are signed by it at all.
 */
export async function hostileTokens(
  provider: OidcProvider,
  resource: string,
  options: HostileOptions = {},
): Promise<HostileTokens> {
  const scope = options.scope ?? provider.scopes.join(" ");
  const valid = await provider.tokenFor(resource, scope);
  const base = decodeJwt(valid);
  const now = Math.floor(Date.now() / 1000);
  // A new jti for each, so that no verifier can tell them apart by a cache of ids.
  const claims = (changes: JWTPayload = {}): JWTPayload => ({
    ...base,
    jti: crypto.randomUUID(),
    ...changes,
  });
  const kid = provider.signingKid;
  const stranger = await generateKeyPair("RS256");
  const foreign = (header: { kid: string }) =>
    new SignJWT(claims()).setProtectedHeader({ alg: "RS256", typ: "at+jwt", ...header })
      .sign(stranger.privateKey);
  const pem = await exportSPKI(
    await importJWK(await provider.publicJwk(kid), "RS256", { extractable: true }) as CryptoKey,
  );
  const encode = (part: object) => base64url.encode(JSON.stringify(part));
  // The claims' JSON grows by the padding exactly; base64 makes it a third larger still.
  const padding = "x".repeat(Math.ceil((options.hugeBytes ?? HUGE_TOKEN_BYTES) * 3 / 4));

  return {
    valid,
    algNone: `${encode({ alg: "none", typ: "at+jwt", kid })}.${encode(claims())}.`,
    foreignKey: await foreign({ kid }),
    unknownKid: await foreign({ kid: "not-a-key-of-this-issuer" }),
    symmetric: await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid })
      .sign(new TextEncoder().encode(pem)),
    wrongIssuer: await provider.sign(claims({ iss: OTHER_ISSUER })),
    wrongAudience: await provider.tokenFor(options.otherResource ?? OTHER_RESOURCE, scope),
    expired: await provider.sign(claims({ iat: now - 7200, exp: now - 3600 })),
    notYetValid: await provider.sign(claims({ iat: now + 3600, nbf: now + 3600, exp: now + 7200 })),
    huge: await provider.sign(claims({ padding })),
  };
}
