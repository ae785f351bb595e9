// The runtime the generated client module carries as source (it imports
// nothing): the transports over HTTP and over graphql-ws, the error with its
// declared code, `safeGraphQL`, and what turns a response into a value. It
// behaves as the package's own client does (`transports.ts`, `remote.ts`,
// `safe.ts`), so both give the same values and errors.

/**
 * The type names the runtime exports: a schema's type of one of these names
 * would clash with it.
 */
export const RUNTIME_TYPES: ReadonlySet<string> = new Set([
  "JSONValue",
  "Operation",
  "Response",
  "Transport",
  "GraphQLClientError",
  "GraphQLClientErrorFrom",
  "GraphQLCall",
  "WsClientLike",
]);

/** The runtime's source; it reads the `SHAPES` table the module declares before it. */
export const RUNTIME =
  `/** A value in the tree's shape: no \`__typename\` from unions, no null for an absent field. */
function tidy(value: unknown, type: string): unknown {
  if (Array.isArray(value)) return value.map((item) => tidy(item, type));
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  let name = type.replace(/[[\\]!]/g, "");
  const union = SHAPES[name];
  if (union !== undefined && "union" in union && typeof record.__typename === "string") {
    name = record.__typename;
  }
  const shape = SHAPES[name];
  if (shape === undefined || !("fields" in shape)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    if (key === "__typename") continue;
    const [fieldType, optional] = shape.fields[key] ?? ["", false];
    if (item === null && optional) continue;
    out[key] = tidy(item, fieldType);
  }
  return out;
}

/** One operation as it is sent. */
export interface Operation {
  query: string;
  operationName: string;
  variables: Record<string, unknown>;
}

/** What a server answers. */
export interface Response {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{ message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown> }>;
}

/** How the client reaches the server. */
export interface Transport {
  request(operation: Operation): Promise<Response>;
  subscribe(operation: Operation): AsyncIterable<Response>;
}

/**
 * A response with errors, and the partial data there was. \`code\` is the code
 * of an error the operation declares (the first error's \`extensions.code\`)
 * and \`details\` its data; both are \`undefined\` for any other error.
 */
export class GraphQLClientError extends Error {
  readonly code: string | undefined;
  readonly details: unknown;
  constructor(
    readonly errors: NonNullable<Response["errors"]>,
    readonly data: Response["data"],
    declared: readonly string[] = [],
  ) {
    super(errors.map((error) => error.message).join("; ") || "GraphQL error");
    this.name = "GraphQLClientError";
    const code = errors[0]?.extensions?.code;
    const isDeclared = typeof code === "string" && declared.includes(code);
    this.code = isDeclared ? code : undefined;
    this.details = isDeclared ? errors[0]?.extensions?.data : undefined;
  }
}

/**
 * Every \`GraphQLClientError\` a call may reject with, given the errors its
 * operation declares (\`E\`: each code with the type of its details): one member
 * per code, told apart by \`code\`, and one with \`code: undefined\` for any other.
 */
export type GraphQLClientErrorFrom<E> =
  | { [K in keyof E & string]: GraphQLClientError & { readonly code: K; readonly details: E[K] } }[keyof E & string]
  | (GraphQLClientError & { readonly code: undefined; readonly details: undefined });

/** A call's promise, which knows the errors its operation declares (\`safeGraphQL\` reads them). */
export type GraphQLCall<T, E = Record<never, never>> = Promise<T> & { readonly "~errors"?: E };

/**
 * Waits for a call: \`{ value }\`, or \`{ error }\` when the response held errors,
 * its declared errors told apart by \`code\`. Anything else (the network
 * failing) still rejects.
 */
export async function safeGraphQL<T, E = Record<never, never>>(
  call: GraphQLCall<T, E>,
): Promise<{ error: undefined; value: T } | { error: GraphQLClientErrorFrom<E>; value: undefined }> {
  try {
    return { error: undefined, value: await call };
  } catch (error) {
    if (error instanceof GraphQLClientError) {
      return { error: error as GraphQLClientErrorFrom<E>, value: undefined };
    }
    throw error;
  }
}

/**
 * Queries and mutations over GraphQL-over-HTTP POSTs; an operation whose
 * variables hold files goes as a multipart request (the GraphQL multipart
 * request spec). Subscriptions need \`wsTransport\`.
 */
export function httpTransport(
  url: string,
  init: { headers?: Record<string, string>; fetch?: (request: Request) => Promise<globalThis.Response> } = {},
): Transport {
  const send = init.fetch ?? ((request: Request) => fetch(request));
  return {
    async request(operation) {
      const files = new Map<Blob, string[]>();
      const variables = withoutFiles(operation.variables, "variables", files);
      const accept = "application/graphql-response+json, application/json";
      let body: string | FormData = JSON.stringify(operation);
      let headers: Record<string, string> = { ...init.headers, "content-type": "application/json", accept };
      if (files.size > 0) {
        body = new FormData();
        body.set("operations", JSON.stringify({ ...operation, variables }));
        body.set("map", JSON.stringify(Object.fromEntries([...files.values()].map((paths, i) => [i, paths]))));
        [...files.keys()].forEach((file, i) => (body as FormData).set(String(i), file));
        headers = { ...init.headers, accept, "graphql-require-preflight": "1" };
      }
      const response = await send(new Request(url, { method: "POST", headers, body }));
      return await response.json() as Response;
    },
    subscribe() {
      throw new TypeError("httpTransport cannot subscribe: use wsTransport for subscriptions");
    },
  };
}

/** The part of a graphql-ws client the WebSocket transport uses: \`createClient\` from \`graphql-ws\` gives one. */
export interface WsClientLike {
  iterate(payload: Operation): AsyncIterableIterator<Response>;
}

/**
 * Every operation over one graphql-ws connection (the graphql-transport-ws
 * protocol): subscriptions as streams, queries and mutations as their result.
 * Files cannot go over a WebSocket: an operation whose variables hold one is
 * refused.
 */
export function wsTransport(client: WsClientLike): Transport {
  return {
    async request(operation) {
      refuseFiles(operation);
      const iterator = client.iterate(operation);
      try {
        let first: IteratorResult<Response>;
        try {
          first = await iterator.next();
        } catch (error) {
          return errorResponse(error);
        }
        if (first.done) throw new TypeError("the connection ended before a result arrived");
        return first.value;
      } finally {
        await iterator.return?.();
      }
    },
    subscribe(operation) {
      refuseFiles(operation);
      return responses(client.iterate(operation));
    },
  };
}

function refuseFiles(operation: Operation): void {
  const files = new Map<Blob, string[]>();
  withoutFiles(operation.variables, "variables", files);
  if (files.size > 0) {
    throw new TypeError("wsTransport cannot send files: send operations with File inputs over httpTransport");
  }
}

async function* responses(source: AsyncIterableIterator<Response>): AsyncGenerator<Response> {
  try {
    for await (const item of source) yield item;
  } catch (error) {
    yield errorResponse(error);
  }
}

/**
 * graphql-ws rejects with the errors of the protocol's \`error\` message (an
 * array): a response with errors, as any other. Anything else is a transport
 * failure.
 */
function errorResponse(thrown: unknown): Response {
  const isError = (item: unknown) => typeof (item as { message?: unknown } | null)?.message === "string";
  if (Array.isArray(thrown) && thrown.length > 0 && thrown.every(isError)) return { errors: thrown };
  throw thrown;
}

function withoutFiles(value: unknown, path: string, files: Map<Blob, string[]>): unknown {
  if (value instanceof Blob) {
    files.set(value, [...files.get(value) ?? [], path]);
    return null;
  }
  if (Array.isArray(value)) return value.map((item, i) => withoutFiles(item, path + "." + i, files));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, { value: withoutFiles(item, path + "." + key, files), enumerable: true, writable: true });
  }
  return copy;
}

function pick(
  response: Response,
  path: readonly string[],
  voidResult: boolean,
  type: string,
  errors: readonly string[],
): unknown {
  if (response.errors !== undefined && response.errors.length > 0) {
    throw new GraphQLClientError(response.errors, response.data, errors);
  }
  let value: unknown = response.data;
  for (const key of path) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return voidResult ? undefined : tidy(value, type);
}

function call<T, E = Record<never, never>>(
  transport: Transport,
  operation: Operation,
  path: readonly string[],
  voidResult: boolean,
  type: string,
  errors: readonly string[],
): GraphQLCall<T, E> {
  return (async () => pick(await transport.request(operation), path, voidResult, type, errors) as T)();
}

async function* stream<T>(
  transport: Transport,
  operation: Operation,
  path: readonly string[],
  voidResult: boolean,
  type: string,
  errors: readonly string[],
): AsyncGenerator<T> {
  for await (const response of transport.subscribe(operation)) {
    yield pick(response, path, voidResult, type, errors) as T;
  }
}`;
