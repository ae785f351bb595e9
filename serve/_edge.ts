// The one edge of `createHandler`: the `policies` it is given stand, once, in
// front of every mount (REST, GraphQL, MCP, the docs, health), each refusal
// written as the mount's surface writes one. A mount answers with nothing
// when Bun took the request over as a WebSocket (`applyPoliciesToUpgrades`).

import { applyPoliciesToUpgrades, type EdgeSurface, type Policy } from "../web/edge.ts";

/** A mount of the handler: Bun's server comes second, for upgrades. */
export type Mounted = (request: Request, server?: unknown) => Promise<Response | undefined>;

/** What puts a mount behind the policies. */
export type Guard = (mounted: Mounted, surface: EdgeSurface) => Mounted;

/**
 * The guard of `policies` (checked already). No policies: each mount as it is.
 * A surface's own `policies` may not name one of these (a request would pass
 * it twice): `surfaceOwn` refuses that when the handler is made.
 */
export function edgeOf(policies: readonly Policy[] | undefined): {
  readonly guard: Guard;
  readonly surfaceOwn: (what: string, own: readonly Policy[] | undefined) => void;
} {
  const names = new Set(policies?.map((policy) => policy.name));
  const surfaceOwn = (what: string, own: readonly Policy[] | undefined) => {
    const twice = own?.find((policy) => names.has(policy.name));
    if (twice !== undefined) {
      throw new TypeError(
        `createHandler: "${twice.name}" is a policy of the handler and of ${what}: a request would pass it twice; list it once`,
      );
    }
  };
  if (policies === undefined || policies.length === 0) {
    return { guard: (mounted) => mounted, surfaceOwn };
  }
  const guard: Guard = (mounted, surface) => applyPoliciesToUpgrades(mounted, surface, policies);
  return { guard, surfaceOwn };
}
