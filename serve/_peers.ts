// The optional npm packages a surface needs, looked for when the handler is
// built: a surface whose package is missing is left out with one line saying
// what to install, so that no request meets a module that cannot load (an
// empty 500, a page whose files answer 503). On Deno the packages are `npm:`
// specifiers that Deno installs on first use, so there is nothing to look for.

import { UI_PACKAGES } from "./_assets.ts";

const runtime = globalThis as { Deno?: unknown; Bun?: unknown };

/**
 * Whether GraphQL subscriptions over WebSocket need the `ws` package here:
 * on Node, where `serveNode` serves them through it (Deno and Bun upgrade
 * sockets themselves).
 */
export const WS_NEEDS_PACKAGE = runtime.Deno === undefined && runtime.Bun === undefined;

/**
 * True when every package resolves from here; otherwise prints one line
 * naming the surface, what to install, and the option that leaves the
 * surface out quietly, and returns false.
 */
export function installed(surface: string, packages: readonly string[], option: string): boolean {
  if (typeof runtime.Deno === "object") return true;
  const missing = packages.filter((name) => {
    try {
      // Resolves without loading: the package's code runs only when the surface is first used.
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return true;
  console.warn(
    `ramify: ${surface} left out: it needs ${missing.join(", ")} (npm i ${
      missing.map(installable).join(" ")
    }); or pass ${option}`,
  );
  return false;
}

/** What to install: a UI package at the major its page is written for (the latest may not fit). */
function installable(name: string): string {
  return Object.hasOwn(UI_PACKAGES, name) ? `${name}@${/\d+/.exec(UI_PACKAGES[name])}` : name;
}
