// The documentation UIs' files, read from their npm packages on first use
// (Swagger UI from swagger-ui-dist; GraphiQL with React 18 from graphiql,
// react and react-dom), so that nothing is fetched from a CDN and a server that
// serves no docs never resolves, downloads or reads them. The specifiers are
// built at run time so that Deno does not fetch the packages ahead of use:
// on Deno `npm:` specifiers with the ranges below (no import map needed, for
// JSR users too); on Node and Bun the installed packages (optional peers of
// the npm package, at the same ranges).

import { problem } from "../web/respond.ts";
import { splitUrl } from "../web/request.ts";

/** A file a UI page asks for: which package holds it, where, and its type. */
interface Asset {
  readonly pkg: string;
  readonly file: string;
  readonly type: string;
}

/** Every asset by the name pages use: nothing else is served (no paths from the client). */
export const ASSETS: Readonly<Record<string, Asset>> = {
  "swagger-ui.css": { pkg: "swagger-ui-dist", file: "swagger-ui.css", type: "text/css" },
  "swagger-ui-bundle.js": {
    pkg: "swagger-ui-dist",
    file: "swagger-ui-bundle.js",
    type: "text/javascript",
  },
  "graphiql.css": { pkg: "graphiql", file: "graphiql.min.css", type: "text/css" },
  "graphiql.js": { pkg: "graphiql", file: "graphiql.min.js", type: "text/javascript" },
  "react.js": { pkg: "react", file: "umd/react.production.min.js", type: "text/javascript" },
  "react-dom.js": {
    pkg: "react-dom",
    file: "umd/react-dom.production.min.js",
    type: "text/javascript",
  },
};

/** The versions the pages are written for. */
export const UI_PACKAGES: Readonly<Record<string, string>> = {
  "swagger-ui-dist": "^5.30.0",
  graphiql: "^3.8.0",
  react: "^18.3.0",
  "react-dom": "^18.3.0",
};

const loaded = new Map<string, Promise<Uint8Array>>();

/** An asset's type and bytes, read once; a failure is not cached, so a later request retries. */
export function assetOf(name: string): { type: string; bytes: Promise<Uint8Array> } | undefined {
  if (!Object.hasOwn(ASSETS, name)) return undefined;
  let bytes = loaded.get(name);
  if (bytes === undefined) {
    bytes = read(ASSETS[name]);
    loaded.set(name, bytes);
    bytes.catch(() => loaded.delete(name));
  }
  return { type: ASSETS[name].type, bytes };
}

// GraphiQL's own dependencies ask for React as a peer: React 18 is resolved first,
// so that they share it (its UMD builds are what the page loads).
const RESOLVED_BEFORE: Readonly<Record<string, readonly string[]>> = {
  graphiql: ["react", "react-dom"],
  "react-dom": ["react"],
};

function manifestOf(pkg: string): string {
  const onDeno = typeof (globalThis as { Deno?: unknown }).Deno === "object";
  return onDeno ? `npm:${pkg}@${UI_PACKAGES[pkg]}/package.json` : [pkg, "package.json"].join("/");
}

async function read({ pkg, file }: Asset): Promise<Uint8Array> {
  const manifest = manifestOf(pkg);
  try {
    for (const peer of RESOLVED_BEFORE[pkg] ?? []) {
      await import(manifestOf(peer), { with: { type: "json" } });
    }
    // Importing the package's manifest makes Deno install the package; Node and Bun find it installed.
    await import(manifest, { with: { type: "json" } });
  } catch (error) {
    throw new Error(
      `ramify: the documentation UI needs the npm package ${pkg} (npm i ${pkg}); or pass docs: false`,
      { cause: error },
    );
  }
  const url = new URL(file, import.meta.resolve(manifest));
  const { readFile } = await import("node:fs/promises");
  return new Uint8Array(await readFile(url));
}

const FILE_CACHE = "public, max-age=86400";

/**
 * Answers a request under a UI's assets path (`prefix`): a page's own script
 * (`scripts`, never cached), else a packaged file, else 404.
 */
export async function serveAsset(
  request: Request,
  prefix: string,
  scripts: Readonly<Record<string, () => string>>,
): Promise<Response> {
  const name = splitUrl(request.url).path.slice(prefix.length + 1);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return problem(405, "Assets answer GET", { allow: "GET, HEAD" });
  }
  if (Object.hasOwn(scripts, name)) {
    return new Response(scripts[name](), {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  const asset = assetOf(name);
  if (asset === undefined) return problem(404, "No such asset");
  try {
    const body = await asset.bytes;
    return new Response(request.method === "HEAD" ? null : body.slice(), {
      headers: {
        "content-type": `${asset.type}; charset=utf-8`,
        "cache-control": FILE_CACHE,
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return problem(503, "The documentation UI's files are not installed on this server");
  }
}
