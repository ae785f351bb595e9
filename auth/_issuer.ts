// An issuer as the guard uses it: its metadata (RFC 8414, else OpenID Connect Discovery), found
// once and kept, and its key set, through jose's remote JWKS (cached, fetched again for a `kid`
// it does not know, at most once per cooldown).

import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";

/** The issuer's metadata fields the guard reads. */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly token_endpoint?: string;
  readonly id_token_signing_alg_values_supported?: readonly string[];
  readonly [key: string]: unknown;
}

/** The issuer's keys or metadata could not be had: the server's trouble, not the token's. */
export class IssuerUnavailable extends Error {
  constructor(what: string, options?: ErrorOptions) {
    super(`The token issuer's ${what} could not be fetched`, options);
    this.name = "IssuerUnavailable";
  }
}

/** The asymmetric JWS algorithms: never `none`, never an HMAC. */
export const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

export interface IssuerOptions {
  readonly issuer: string;
  readonly jwks?: string;
  readonly algorithms?: readonly string[];
  readonly cooldownMs: number;
  readonly keysMaxAgeMs: number;
  readonly timeoutMs: number;
}

/** What verifying a JWT needs of the issuer, each found on first use. */
export interface Issuer {
  metadata(): Promise<IssuerMetadata>;
  /** The claims of a JWT the issuer signed for `audience`, or a thrown jose error. */
  verify(
    token: string,
    audience: readonly string[],
    clockToleranceSec: number,
  ): Promise<JWTPayload>;
}

export function issuerOf(options: IssuerOptions): Issuer {
  let found: Promise<IssuerMetadata> | undefined;
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  let algorithms: Promise<string[]> | undefined;
  const metadata = () => {
    found ??= discover(options.issuer, options.timeoutMs).catch((error) => {
      // A failed discovery is asked again by the next request.
      found = undefined;
      throw error;
    });
    return found;
  };
  const keySet = () => {
    keys ??= (async () => {
      const uri = options.jwks ?? (await metadata()).jwks_uri;
      if (uri === undefined) throw new IssuerUnavailable("key set (its metadata has no jwks_uri)");
      return createRemoteJWKSet(new URL(uri), {
        cooldownDuration: options.cooldownMs,
        cacheMaxAge: options.keysMaxAgeMs,
        timeoutDuration: options.timeoutMs,
      });
    })().catch((error) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  const allowed = () => {
    algorithms ??= options.algorithms !== undefined
      ? Promise.resolve([...options.algorithms])
      : metadata().then(announced).catch((error) => {
        algorithms = undefined;
        throw error;
      });
    return algorithms;
  };
  return {
    metadata,
    async verify(token, audience, clockToleranceSec) {
      const remote = await keySet();
      const { payload } = await jwtVerify(token, async (header, jws) => {
        try {
          return await remote(header, jws);
        } catch (error) {
          // No key for its kid is the token's fault; a key set that cannot be had is ours.
          if (
            error instanceof errors.JWKSNoMatchingKey ||
            error instanceof errors.JWKSMultipleMatchingKeys
          ) throw error;
          throw new IssuerUnavailable("key set", { cause: error });
        }
      }, {
        issuer: options.issuer,
        audience: [...audience],
        algorithms: await allowed(),
        clockTolerance: clockToleranceSec,
      });
      return payload;
    },
  };
}

/** The asymmetric algorithms the issuer announces, else every asymmetric one. */
function announced(metadata: IssuerMetadata): string[] {
  const listed = [
    metadata.id_token_signing_alg_values_supported,
    metadata["access_token_signing_alg_values_supported"],
  ].flatMap((value) => Array.isArray(value) ? value.filter((v) => typeof v === "string") : []);
  const asymmetric = new Set<string>(ASYMMETRIC);
  const usable = listed.filter((alg) => asymmetric.has(alg));
  return usable.length > 0 ? [...new Set(usable)] : [...ASYMMETRIC];
}

/** RFC 8414's well-known document, else OpenID Connect's; each must name this issuer. */
async function discover(issuer: string, timeoutMs: number): Promise<IssuerMetadata> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
  ];
  let cause: unknown;
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        cause = new Error(`${candidate} answered ${response.status}`);
        continue;
      }
      const metadata = await response.json() as IssuerMetadata;
      // RFC 8414 §3.3: metadata naming another issuer is not this issuer's.
      if (metadata?.issuer !== issuer) {
        cause = new Error(`${candidate} names the issuer ${JSON.stringify(metadata?.issuer)}`);
        continue;
      }
      return metadata;
    } catch (error) {
      cause = error;
    }
  }
  throw new IssuerUnavailable("metadata", { cause });
}
