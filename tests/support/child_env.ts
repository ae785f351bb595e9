/**
 * The environment of a child Deno process a test starts through the MCP SDK's
 * stdio transport: the SDK's default (HOME, PATH, ...), which leaves out what
 * Deno needs to load modules as the test did, carried over when set: the
 * module cache (`DENO_DIR`: CI runs the tests on an empty one, and the child
 * would otherwise download into another), and the network's certificates and
 * proxies (a registry behind a proxy's own CA fails `UnknownIssuer` without
 * `NODE_EXTRA_CA_CERTS`).
 *
 * @module
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";

const CARRIED = [
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NODE_EXTRA_CA_CERTS",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

/** The child's environment: the SDK's default, what Deno loads modules with, no colour, then `extra`. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...getDefaultEnvironment(),
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
  };
  for (const name of CARRIED) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
