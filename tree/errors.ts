/**
 * Declared errors: a leaf lists the errors it may raise in `meta.errors`, by
 * code, each with its status and an optional schema of the data it carries.
 * The handler (or a middleware) throws `new LeafError(code, { data })`; the
 * call path checks the code is declared and the data fits, and every surface
 * shows it: a problem+json with `code` and `data` over HTTP, the code in
 * GraphQL's `extensions`, the status and code in MCP and command-line output,
 * a narrowable `ClientError` in the typed clients, and a response in the
 * OpenAPI document. An undeclared code is a server fault (500, masked).
 *
 * @example
 * ```ts
 * import { LeafError, op } from "@ramify/api/tree";
 * import { z } from "zod";
 *
 * const read = op(({ id }: { id: string }) => {
 *   throw new LeafError("BOOK_NOT_FOUND", { data: { id } });
 * }, {
 *   errors: { BOOK_NOT_FOUND: { status: 404, message: "No such book", data: z.object({ id: z.string() }) } },
 * });
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";

/**
 * One declared error: its HTTP status (400 to 599), a default message, a
 * description for the documentation and the schema of its data.
 *
 * @example
 * ```ts
 * import type { ErrorDeclaration } from "@ramify/api/tree";
 *
 * const conflict: ErrorDeclaration = { status: 409, message: "Already reserved" };
 * ```
 */
export interface ErrorDeclaration<
  D extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
> {
  /** The HTTP status it answers with, 400 to 599. */
  readonly status: number;
  /** The message sent when the thrower gives none. Default: the code. */
  readonly message?: string;
  /** What it means, for the documentation. */
  readonly description?: string;
  /** The schema of its data. */
  readonly data?: D;
}

// An interface, not `Readonly<Record<…>>`: as `op()`'s constraint a mapped
// alias is instantiated again for every call (about 6 instantiations per op,
// bench/types); the same shape.
/**
 * A leaf's declared errors, by code.
 *
 * @example
 * ```ts
 * import type { ErrorDeclarations } from "@ramify/api/tree";
 *
 * const errors: ErrorDeclarations = { OUT_OF_STOCK: { status: 409 } };
 * ```
 */
export interface ErrorDeclarations {
  /** The declaration of the error of this code. */
  readonly [code: string]: ErrorDeclaration;
}

/**
 * Options of {@linkcode LeafError}.
 *
 * @example
 * ```ts
 * import type { LeafErrorOptions } from "@ramify/api/tree";
 *
 * const opts: LeafErrorOptions<{ id: string }> = { data: { id: "9" }, message: "No book 9" };
 * ```
 */
export interface LeafErrorOptions<D = unknown> {
  /** What went wrong, for the caller. Default: the declaration's message. */
  readonly message?: string;
  /** The data the declaration's schema describes. */
  readonly data?: D;
  /** The underlying error; never sent. */
  readonly cause?: unknown;
}

/**
 * An error a leaf declares in `meta.errors`. Its `status` is filled in by the
 * call path from the declaration; one thrown where its code is not declared
 * stays without a status and is a server fault.
 *
 * @example
 * ```ts
 * import { LeafError } from "@ramify/api/tree";
 *
 * const error = new LeafError("OUT_OF_STOCK", { data: { left: 0 } });
 * console.log(error.code, error.status); // "OUT_OF_STOCK" undefined
 * ```
 */
export class LeafError<Code extends string = string, Data = unknown> extends Error {
  /** The declared code. */
  readonly code: Code;
  /** Its data (checked by the declaration's schema). */
  readonly data: Data | undefined;
  /** The declared status; `undefined` until the call path has matched the declaration. */
  readonly status: number | undefined;

  /**
   * Makes the error.
   *
   * @param code the code, as declared in `meta.errors`
   * @param options message, data and cause
   * @param status filled in by the call path
   */
  constructor(code: Code, options: LeafErrorOptions<Data> = {}, status?: number) {
    super(options.message ?? code, { cause: options.cause });
    this.name = "LeafError";
    this.code = code;
    this.data = options.data;
    this.status = status;
  }
}

const CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

/** What is wrong with a `meta.errors`, or `undefined`. */
export function errorsProblem(
  errors: unknown,
  isSchema: (value: unknown) => boolean,
): string | undefined {
  if (errors === undefined) return undefined;
  if (typeof errors !== "object" || errors === null || Array.isArray(errors)) {
    return "meta.errors must be an object of code to { status, message?, data? }";
  }
  for (const [code, declaration] of Object.entries(errors)) {
    if (!CODE.test(code)) {
      return `meta.errors: ${
        JSON.stringify(code)
      } is not a code (a letter, then letters, digits, "_", "." or "-")`;
    }
    const { status, data, message } = (declaration ?? {}) as Partial<ErrorDeclaration>;
    if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599) {
      return `meta.errors.${code}: status must be an integer from 400 to 599`;
    }
    if (data !== undefined && !isSchema(data)) {
      return `meta.errors.${code}: data must be a Standard Schema`;
    }
    if (message !== undefined && typeof message !== "string") {
      return `meta.errors.${code}: message must be a string`;
    }
  }
  return undefined;
}

/**
 * Matches a thrown `LeafError` with the leaf's declarations: a declared one
 * comes back with its status, its message defaulted and its data parsed; an
 * undeclared one, or data that does not fit, is a server fault (an `Error`).
 * Anything else is rethrown as it is.
 */
export async function declared(error: unknown, errors: ErrorDeclarations): Promise<never> {
  if (!(error instanceof LeafError) || error.status !== undefined) throw error;
  const declaration = Object.hasOwn(errors, error.code) ? errors[error.code] : undefined;
  if (declaration === undefined) {
    throw new Error(`The leaf raised the undeclared error code ${error.code}`, { cause: error });
  }
  let data = error.data;
  if (declaration.data !== undefined) {
    const result = await declaration.data["~standard"].validate(data);
    if (result.issues !== undefined) {
      throw new Error(`The data of error ${error.code} does not match its declared schema`, {
        cause: error,
      });
    }
    data = result.value;
  }
  const message = error.message === error.code ? declaration.message ?? error.code : error.message;
  throw new LeafError(error.code, { message, data, cause: error.cause }, declaration.status);
}
