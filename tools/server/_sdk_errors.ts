// What the MCP SDK reports through its `onerror` (`createMcpHandler`'s
// option): a request it refused (an unsupported revision, a missing client
// capability, headers that contradict the body, a wrong media type) is the
// caller's mistake, answered on the wire and never a fault; anything else (a
// server that could not be made, a failure while serving, a listener's throw)
// is a fault, for the handler's `onError` as every other fault is.

import type { ErrorObserver } from "../../tree/options.ts";
import type { Sdk } from "./_server.ts";
import { observe } from "./_result.ts";

/** The SDK's own lines for a request it refused (a 4xx, or its listen streams' limit). */
const REFUSED = /^(?:Rejected |Unsupported Media Type|subscriptions\/listen refused)/;

/**
 * The SDK's `onerror`: each fault it reports goes to `onError` (over HTTP it
 * has no request to give); a refused request goes nowhere.
 *
 * @example
 * ```ts
 * import * as sdk from "@modelcontextprotocol/server";
 * import { sdkErrors } from "./_sdk_errors.ts";
 *
 * const seen: unknown[] = [];
 * const onerror = sdkErrors(sdk, (error) => seen.push(error));
 * onerror(new Error("the factory failed"));
 * onerror(new sdk.UnsupportedProtocolVersionError({ supported: ["2026-07-28"], requested: "1" }));
 * console.log(seen.length); // 1
 * ```
 */
export function sdkErrors(loaded: Sdk, onError: ErrorObserver): (error: Error) => void {
  return (error) => {
    if (!refusal(loaded, error)) observe(onError, error);
  };
}

function refusal(loaded: Sdk, error: Error): boolean {
  return error instanceof loaded.UnsupportedProtocolVersionError ||
    error instanceof loaded.MissingRequiredClientCapabilityError ||
    REFUSED.test(error.message);
}
