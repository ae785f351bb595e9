// A Node request's body as the web stream a handler reads, with back-pressure:
// the socket is paused while what arrived waits unread, and read on as the
// handler pulls. A handler that stops reading (a 413, say) cancels the stream:
// what still comes is discarded as it arrives, never buffered. Once the answer
// is sent, a body not yet over is drained for a while (the client reads its
// answer while it still sends, rather than meet a reset), then the connection
// is closed. Nothing is handed to the stream after it ended, whichever way.

/**
 * What this reads of Node's `IncomingMessage` (written out, so that only the
 * adapter itself names `node:` modules).
 *
 * @example
 * ```ts
 * import type { NodeIncoming } from "./_node_body.ts";
 *
 * const unfinished = (incoming: NodeIncoming) => !incoming.complete && !incoming.destroyed;
 * ```
 */
export interface NodeIncoming {
  /** Whether the whole body has arrived. */
  readonly complete: boolean;
  readonly destroyed: boolean;
  readonly socket: { destroy(): void } | null;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "end", listener: () => void): unknown;
  once(event: "close", listener: () => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** How many bytes of a body wait for the handler before the socket is paused. */
const AHEAD_BYTES = 64 * 1024;

/**
 * How long a body left unread is drained after the answer before the connection is closed.
 *
 * @example
 * ```ts
 * import { LINGER_MS } from "./_node_body.ts";
 *
 * console.log(LINGER_MS); // 2000
 * ```
 */
export const LINGER_MS = 2_000;

/**
 * A request's body stream, and what to do once its answer is sent.
 *
 * @example
 * ```ts
 * import type { NodeBody } from "./_node_body.ts";
 *
 * const answered = (body: NodeBody) => body.release();
 * ```
 */
export interface NodeBody {
  /** The body as the handler reads it. */
  readonly stream: ReadableStream<Uint8Array>;
  /**
   * Called once the answer is sent (or the connection is gone): a body not
   * yet over is discarded as it arrives, for at most `lingerMs`, then the
   * connection is closed.
   */
  release(): void;
}

/**
 * The body of `incoming` as a web stream that reads the socket only as fast as it is read.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "node:http";
 * import { nodeBody } from "./_node_body.ts";
 *
 * createServer((incoming, outgoing) => {
 *   const body = nodeBody(incoming);
 *   outgoing.on("close", () => body.release());
 *   new Response(body.stream).text().then((text) => outgoing.end(`${text.length}`));
 * });
 * ```
 */
export function nodeBody(incoming: NodeIncoming, lingerMs: number = LINGER_MS): NodeBody {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Whether the stream still takes chunks: false once ended, failed or cancelled.
  let open = true;
  let released = false;
  const onData = (chunk: Uint8Array) => {
    if (!open) return;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
  };
  const onEnd = () => {
    if (!open) return;
    open = false;
    controller.close();
  };
  const onError = (error: Error) => {
    if (!open) return;
    open = false;
    controller.error(error);
  };
  const onClose = () => {
    if (!incoming.complete) onError(new Error("The client went away before its body ended"));
  };
  /** Stops handing chunks on: whatever arrives from now is dropped as it comes. */
  const discard = () => {
    open = false;
    incoming.off("data", onData);
    incoming.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
      incoming.on("data", onData);
      // Paused until the handler reads: `pull` lets it flow.
      incoming.pause();
      incoming.on("end", onEnd);
      incoming.on("error", onError);
      incoming.on("close", onClose);
    },
    pull() {
      if (open) incoming.resume();
    },
    cancel() {
      discard();
    },
  }, { highWaterMark: AHEAD_BYTES, size: (chunk) => chunk.byteLength });
  return {
    stream,
    release() {
      if (released) return;
      released = true;
      if (incoming.complete || incoming.destroyed) return;
      if (open) onError(new Error("The answer was sent before the body was read"));
      discard();
      const timer = setTimeout(() => {
        if (!incoming.complete) incoming.socket?.destroy();
      }, lingerMs);
      (timer as { unref?: () => void }).unref?.();
      const stop = () => clearTimeout(timer);
      incoming.once("end", stop);
      incoming.once("close", stop);
    },
  };
}
