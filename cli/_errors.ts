// A failed command as one line on standard error and its exit code. In
// process, the line is the tree's for the failure (the status the HTTP surface
// would answer first); remote, it is read from the problem the server sent.

import type { HandlerContext } from "../tree/node.ts";
import { failureLine, issuesLine, statusLine } from "../tree/failure.ts";
import { titleOf } from "../tree/http_error.ts";
import { failureOf } from "../tree/run.ts";
import { ClientError } from "../client/client_error.ts";

/** What a failed command writes and exits with. */
export interface Failed {
  /** The line, without `error: ` and the newline. */
  readonly line: string;
  /** 1 the command failed; 130 it was cancelled (as a shell reports Ctrl-C). */
  readonly exitCode: number;
  /** A fault: the thrown value goes to `onError`, the line says no more than `500 Internal Server Error`. */
  readonly fault: boolean;
}

/** 128 + SIGINT: what a shell reports for a command Ctrl-C stopped. */
export const CANCELLED_EXIT = 130;

/** A failure of a call made for `context` (whose signal is the caller's): the tree's one line for it. */
export function failedCall(error: unknown, context: HandlerContext): Failed {
  const failure = failureOf(error, context);
  return {
    line: failureLine(failure),
    exitCode: failure.kind === "cancelled" ? CANCELLED_EXIT : 1,
    fault: failure.kind === "fault",
  };
}

/**
 * A failure of a call sent to a server: the problem it answered with, or the
 * server out of reach; anything else is classified as in process.
 */
export function failedRemoteCall(error: unknown, context: HandlerContext): Failed {
  if (error instanceof ClientError) {
    const problem = error.problem;
    const issues = problem?.issues;
    const detail = Array.isArray(issues) && issues.length > 0
      ? issuesLine(issues)
      : problem?.detail;
    const code = typeof problem?.code === "string" ? problem.code : undefined;
    return {
      line: statusLine(
        error.status,
        problem?.title ?? (error.statusText || titleOf(error.status)),
        detail,
        code,
      ),
      exitCode: 1,
      fault: false,
    };
  }
  // fetch rejects with a TypeError when no connection could be made.
  if (error instanceof TypeError && /fetch|connect/i.test(error.message)) {
    return {
      line: `the server could not be reached: ${error.message}`,
      exitCode: 1,
      fault: false,
    };
  }
  return failedCall(error, context);
}
