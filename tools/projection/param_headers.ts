// SEP-2243 (MCP 2026-07-28, Streamable HTTP): an input property whose schema
// carries `x-mcp-header: "<Name>"` is mirrored by the client into the HTTP
// header `Mcp-Param-<Name>`. The declarations, read when the tools are
// collected (tools.ts): a name that is no RFC 9110 token, a type other than
// string, integer or boolean, a name given twice (case-insensitively) or one
// off the chain of `properties` is an error naming the leaf. Used by the MCP
// server too (tools/server/_param_headers.ts), which checks each call's
// headers against its body.

import type { JsonSchema } from "../../tree/schema.ts";
import { isPlainObject } from "../../tree/plain_data.ts";

/** One property mirrored into a header. */
export interface ParamHeader {
  /** The property's path under `arguments`, through `properties`. */
  readonly path: readonly string[];
  /** The name after `Mcp-Param-`, as declared. */
  readonly name: string;
  readonly type: "string" | "integer" | "boolean";
}

const KEY = "x-mcp-header";
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);
/** The keywords of `ELSEWHERE` whose values map names to schemas. */
const NAMED: ReadonlySet<string> = new Set(["$defs", "patternProperties", "dependentSchemas"]);
/** Where a declaration is not allowed: anything but a chain of `properties`. */
const ELSEWHERE = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
];

/**
 * The header declarations of a tool's input schema.
 *
 * @throws {TypeError} naming the property of an invalid declaration.
 */
export function paramHeadersOf(schema: JsonSchema | undefined): readonly ParamHeader[] {
  const found: ParamHeader[] = [];
  const names = new Map<string, string>();
  // One path, extended and shortened in place, copied only for a declaration:
  // most properties declare none.
  const path: string[] = [];
  const visit = (node: unknown, reachable: boolean) => {
    if (Array.isArray(node)) return node.forEach((member) => visit(member, false));
    if (!isPlainObject(node)) return;
    if (Object.hasOwn(node, KEY)) {
      const at = path.length === 0 ? "the root" : path.join(".");
      const name = node[KEY];
      if (!reachable || path.length === 0) {
        throw new TypeError(
          `${KEY} at ${at}: only a property reached through "properties" is sent`,
        );
      }
      if (typeof name !== "string" || !TOKEN.test(name)) {
        throw new TypeError(`${KEY} at ${at}: ${JSON.stringify(name)} is no header name token`);
      }
      if (!TYPES.has(node.type)) {
        throw new TypeError(`${KEY} at ${at}: a string, integer or boolean, not ${node.type}`);
      }
      const other = names.get(name.toLowerCase());
      if (other !== undefined) throw new TypeError(`${KEY} "${name}" is given twice (${other})`);
      names.set(name.toLowerCase(), at);
      found.push({ path: [...path], name, type: node.type as ParamHeader["type"] });
    }
    if (isPlainObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        path.push(key);
        visit(child, reachable);
        path.pop();
      }
    }
    for (const keyword of ELSEWHERE) {
      const sub = node[keyword];
      // Most schemas hold few of these keywords: nothing is made for an absent one.
      if (sub === undefined) continue;
      if (!NAMED.has(keyword)) visit(sub, false);
      else if (isPlainObject(sub)) {
        for (const part of Object.values(sub)) visit(part, false);
      }
    }
  };
  visit(schema, true);
  return found;
}
