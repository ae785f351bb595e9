// A failed command as one line: the status the HTTP surface would answer and
// what went wrong (a problem's title and detail, a schema's issues).

import { InputError, OutputError } from "../tree/call.ts";
import { httpErrorOf, issuesLine, problemLine } from "../http/web/problem.ts";
import { ClientError } from "../http/client/client_error.ts";

/** `422 Unprocessable Content: name: Too small`, `404 Not Found: No book 9`, ... */
export function describeError(error: unknown): string {
  if (error instanceof InputError) {
    return `422 Unprocessable Content: ${issuesLine(error.issues)}`;
  }
  const http = httpErrorOf(error);
  if (http !== undefined) {
    return problemLine(http.status, http.problem.title, http.problem.detail, http.problem.code);
  }
  if (error instanceof ClientError) {
    const problem = error.problem;
    const issues = (problem as { issues?: unknown } | undefined)?.issues;
    const title = problem?.title ?? error.statusText;
    if (Array.isArray(issues) && issues.length > 0) {
      return `${error.status} ${title}: ${issuesLine(issues)}`;
    }
    return problemLine(error.status, title, problem?.detail, error.code);
  }
  if (error instanceof OutputError) {
    return "500 Internal Server Error: the result does not match the command's output schema";
  }
  if (error instanceof TypeError && /fetch|connect/i.test(error.message)) {
    return `the server could not be reached: ${error.message}`;
  }
  return `500 Internal Server Error: ${error instanceof Error ? error.message : String(error)}`;
}
