// SEP-2243 (MCP 2026-07-28, Streamable HTTP): the client mirrors each input
// property declared `x-mcp-header: "<Name>"` into the HTTP header
// `Mcp-Param-<Name>` (a value that is no plain visible ASCII travels as
// `=?base64?<utf-8 as Base64>?=`). The server reads the header and checks it
// against the body before the call runs: a body value with no header, an
// invalid Base64 form or a value that differs is refused with the JSON-RPC
// error -32020 (HeaderMismatch) under HTTP 400. A null or absent body value
// expects no header. The declarations are the tool's, read once when the
// tools are collected (tools/projection/param_headers.ts).

import { isPlainObject } from "../../tree/plain_data.ts";
import type { ParamHeader } from "../projection/param_headers.ts";

/** A header's value as sent: literal, or the Base64 form decoded; `undefined` when that form is broken. */
function decoded(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=")) return value;
  const base64 = value.slice(9, -2);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64)) {
    return undefined;
  }
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Why a call's headers disagree with its arguments, or `undefined` when every
 * declared value the body carries is in its header, the same.
 *
 * @example
 * ```ts
 * import { paramHeaderProblem } from "./_param_headers.ts";
 *
 * const declared = [{ path: ["region"], name: "Region", type: "string" as const }];
 * const headers = new Headers({ "mcp-param-region": "eu" });
 * console.log(paramHeaderProblem(declared, { region: "eu" }, headers)); // undefined
 * console.log(paramHeaderProblem(declared, { region: "us" }, headers)?.header); // "Mcp-Param-Region"
 * ```
 */
export function paramHeaderProblem(
  declared: readonly ParamHeader[],
  args: unknown,
  headers: Headers,
): { header: string; message: string } | undefined {
  for (const { path, name, type } of declared) {
    let value = args;
    for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    const header = `Mcp-Param-${name}`;
    const sent = headers.get(header);
    const where = path.join(".");
    if (sent === null) {
      return { header, message: `${where} is in the body but ${header} is absent` };
    }
    const text = decoded(sent.trim());
    if (text === undefined) return { header, message: `${header} holds an invalid Base64 value` };
    const same = type === "integer" && typeof value === "number"
      ? /^-?\d+(\.\d+)?$/.test(text) && Number(text) === value
      : text === (typeof value === "boolean" ? String(value) : String(value));
    if (!same) {
      return {
        header,
        message: `${header} is ${JSON.stringify(text)} but ${where} is ${JSON.stringify(value)}`,
      };
    }
  }
  return undefined;
}

/**
 * The 400 (-32020, HeaderMismatch) a 2026-era `tools/call` is refused with
 * when its `Mcp-Param-*` headers disagree with its arguments (`message`, the
 * body as parsed, `undefined` for one that is no JSON: the SDK answers it);
 * `undefined` to let it through.
 *
 * @example
 * ```ts
 * import { paramHeadersRefusal } from "./_param_headers.ts";
 *
 * const tools = new Map([["weather", {
 *   paramHeaders: [{ path: ["region"], name: "Region", type: "string" as const }],
 * }]]);
 * const request = new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "mcp-name": "weather", "mcp-param-region": "us" },
 * });
 * const message = { id: 1, params: { name: "weather", arguments: { region: "eu" } } };
 * console.log(paramHeadersRefusal(tools, request, message)?.status); // 400
 * ```
 */
export function paramHeadersRefusal(
  tools: ReadonlyMap<string, { readonly paramHeaders: readonly ParamHeader[] }>,
  request: Request,
  message: unknown,
): Response | undefined {
  const declared = tools.get(request.headers.get("mcp-name")?.trim() ?? "")?.paramHeaders;
  if (declared === undefined || declared.length === 0 || message === undefined) return undefined;
  const params = isPlainObject(message) && isPlainObject(message.params) ? message.params : {};
  const problem = paramHeaderProblem(declared, params.arguments, request.headers);
  if (problem === undefined) return undefined;
  const id = isPlainObject(message) ? message.id : undefined;
  return Response.json({
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: {
      code: -32020,
      message: `Bad Request: the request headers and body disagree: ${problem.message}`,
      data: { mismatch: { header: problem.header, body: problem.message } },
    },
  }, { status: 400 });
}
