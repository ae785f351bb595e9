// What execution gives back, made safe to send: an error graphql-js raised
// while completing a value (a getter that throws, a rejected promise inside a
// result, a null for a non-null field) is masked and observed like a
// resolver's crash; a variable that does not coerce is BAD_USER_INPUT; with
// introspection off, no message suggests a name. Shared: the server
// (server.ts) masks what its executor gives, the WebSocket transport
// (graphql/transport/_ws_protocol.ts) each event it sends.

import { type ExecutionResult, GraphQLError } from "graphql";

/** A message without graphql-js's `Did you mean ...?` tail. */
function withoutSuggestion(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?$/, "");
}

/** The errors with their suggestions of schema names removed. */
export function hideSuggestions(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((error) => {
    const message = withoutSuggestion(error.message);
    return message === error.message ? error : remade(error, message, error.extensions);
  });
}

/** An error with another message or extensions: where it points (nodes, source, path) kept. */
export function remade(
  error: GraphQLError,
  message: string,
  extensions: GraphQLError["extensions"],
): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions,
  });
}

/**
 * Masks each execution error that carries no code: only errors the resolvers
 * rendered (or masked themselves) have one, so any other is the engine's or a
 * value's fault, never the client's. `observe` never throws (`observer`).
 */
export function maskExecution(
  result: ExecutionResult,
  observe: (error: unknown) => void,
  introspection: boolean,
): ExecutionResult {
  if (result.errors === undefined) return result;
  // Without data, the errors are the request's (variable coercion): the caller's
  // mistake, BAD_USER_INPUT on every transport, as the HTTP one answers it.
  if (result.data === undefined) {
    const errors = result.errors.map(badUserInput);
    return { ...result, errors: introspection ? errors : hideSuggestions(errors) };
  }
  const errors = result.errors.map((error) => {
    if (error.extensions?.code !== undefined) return error;
    observe(error.originalError ?? error);
    return new GraphQLError("Unexpected error.", {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
  });
  return { ...result, errors };
}

function badUserInput(error: GraphQLError): GraphQLError {
  if (error.extensions?.code !== undefined) return error;
  return remade(error, error.message, { ...error.extensions, code: "BAD_USER_INPUT" });
}
