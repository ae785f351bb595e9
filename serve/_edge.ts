// The one edge of `createHandler`: the `policies` it is given stand, once, in
// front of every mount (REST, GraphQL, MCP, the docs, health), each refusal
// written as the mount's surface writes one. A mount answers with nothing
// when Bun took the request over as a WebSocket; inside the chain a mark
// stands for that, so policies always see a Response.

import { applyPolicies, type EdgeSurface, type Policy } from "../http/web/edge.ts";

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
  // Bun's server for the request now in the chain (a policy passes on the request it got).
  const servers = new WeakMap<Request, unknown>();
  const guard: Guard = (mounted, surface) => {
    const upgraded = new WeakSet<Response>();
    const chain = applyPolicies(
      async (request) => {
        const answer = await mounted(request, servers.get(request));
        if (answer !== undefined) return answer;
        const mark = new Response(null);
        upgraded.add(mark);
        return mark;
      },
      surface,
      policies,
    );
    return async (request, server) => {
      if (server !== undefined) servers.set(request, server);
      const answer = await chain(request);
      return upgraded.has(answer) ? undefined : answer;
    };
  };
  return { guard, surfaceOwn };
}
