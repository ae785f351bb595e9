// The `requestState` of MCP's 2026 revision (multi-round-trip requests,
// _rounds.ts) holds the answers of a call's earlier rounds and travels
// through the client, which echoes it back: attacker-controlled input on
// return. It is sealed with HMAC-SHA256 (the SDK's codec, on WebCrypto) under
// the first of the server's `requestStateKeys`, and opened under any of them:
// every instance sharing the keys reads what another sealed, and a key is
// rotated by putting its successor first while it still opens the states it
// sealed (they expire after ten minutes). Without keys, one random key per
// server: right only where one process serves every round. A state no key
// opens (tampered, expired, sealed elsewhere, for another method or another
// caller: the identity the edge established) is refused
// by the SDK before any handler runs, with the `-32602` of the revision.

import type { AuthInfo, ServerContext } from "@modelcontextprotocol/server";
import type { McpOptions } from "./options.ts";

/** The SDK's module, loaded on the first request. */
type Sdk = typeof import("@modelcontextprotocol/server");

/** Seals a call's state, and opens a state a client echoed. */
export interface StateSeal {
  mint(payload: unknown, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

/** The SDK's floor for an HMAC-SHA256 key, and the NIST one. */
const MIN_KEY_BYTES = 32;

/**
 * The keys of the options, checked: a non-empty list of secrets of at least
 * 32 bytes each (a string counts its UTF-8 bytes); `undefined` when none
 * were given.
 *
 * @throws {RangeError} naming the key that is too short, or the empty list.
 */
export function requestStateKeysOf(opts: McpOptions): readonly Uint8Array[] | undefined {
  const keys = opts.requestStateKeys;
  if (keys === undefined) return undefined;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new RangeError("MCP: requestStateKeys must list at least one key, the current first");
  }
  return keys.map((key: unknown, index) => {
    const bytes = typeof key === "string"
      ? new TextEncoder().encode(key)
      : key instanceof Uint8Array
      ? key
      : undefined;
    if (bytes === undefined || bytes.byteLength < MIN_KEY_BYTES) {
      throw new RangeError(
        `MCP: requestStateKeys[${index}] must be a string or Uint8Array of at least ${MIN_KEY_BYTES} bytes`,
      );
    }
    return bytes;
  });
}

// One seal per options object: the keys are imported once, not per request.
const seals = new WeakMap<McpOptions, StateSeal>();

/** The seal of a server's options (made on the first request that needs it). */
export function stateSeal(loaded: Sdk, opts: McpOptions): StateSeal {
  let seal = seals.get(opts);
  if (seal === undefined) {
    const keys = requestStateKeysOf(opts) ?? [crypto.getRandomValues(new Uint8Array(32))];
    // Bound to the method (a `tools/call`'s state is no `prompts/get`'s) and
    // to the caller (its identity, as the edge passed it on): another
    // principal's echo of a state is refused, so it cannot answer what this
    // one was asked.
    const codecs = keys.map((key) =>
      loaded.createRequestStateCodec({
        key,
        bind: (ctx) => `${ctx.mcpReq.method}\u0000${callerOf(ctx.http?.authInfo) ?? ""}`,
      })
    );
    seal = {
      mint: (payload, ctx) => codecs[0].mint(payload, ctx),
      async verify(state, ctx) {
        let refusal: unknown;
        for (const codec of codecs) {
          try {
            return await codec.verify(state, ctx);
          } catch (error) {
            refusal ??= error;
          }
        }
        throw refusal;
      },
    };
    seals.set(opts, seal);
  }
  return seal;
}

/** Where the edge puts a request's identity (its fingerprint) in the SDK's `authInfo`. */
const CALLER = "ramify.caller";

/**
 * The SDK's `authInfo` of a request whose caller is `owner` (a fingerprint,
 * or undefined for the anonymous caller): what the request state is bound to.
 *
 * @example
 * ```ts
 * import { callerInfo } from "./_request_state.ts";
 *
 * console.log(callerInfo("4f2a").clientId); // "4f2a"
 * ```
 */
export function callerInfo(owner: string | undefined): AuthInfo {
  return { token: "", clientId: owner ?? "", scopes: [], extra: { [CALLER]: owner ?? "" } };
}

function callerOf(info: AuthInfo | undefined): string | undefined {
  const caller = info?.extra?.[CALLER];
  return typeof caller === "string" ? caller : undefined;
}
