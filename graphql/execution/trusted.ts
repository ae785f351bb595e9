// Trusted documents: the allowlist a server runs documents from, and the
// document id a request names one by. Free of graphql-js, so that
// `createHttpGraphQLServer` checks the option when it is made. Shared: the
// server (server.ts) holds the list, the transports (graphql/transport/) read
// the id a request names.

/** At most this many characters in a document id: a SHA-256 in hex with its prefix is 71. */
const MAX_ID_LENGTH = 256;

/**
 * The documents a GraphQL server runs: an allowlist of document texts by id
 * (`toTrustedDocuments(tree)` makes it from the documents the generated and
 * typed clients send). A request names one by `documentId` (or Apollo's
 * `extensions.persistedQuery.sha256Hash`), or sends a text the list holds;
 * anything else is refused unless `allowUntrusted`.
 *
 * @example
 * ```ts
 * import type { TrustedDocumentsOptions } from "@ramify/api/graphql";
 *
 * const trusted: TrustedDocumentsOptions = {
 *   documents: { "sha256:2b1c": "query Ping { ping }" },
 * };
 * ```
 */
export interface TrustedDocumentsOptions {
  /** Document id to document text. */
  readonly documents: Readonly<Record<string, string>>;
  /**
   * Whether a document the list does not hold may still run (ids are still
   * read): for rolling a list out. Default `false`.
   */
  readonly allowUntrusted?: boolean;
}

/** The allowlist, checked and copied: later changes to the given record change nothing. */
export class TrustedDocuments {
  readonly #texts = new Map<string, string>();
  readonly #trusted = new Set<string>();
  readonly allowUntrusted: boolean;

  constructor(input: TrustedDocumentsOptions, where: string) {
    if (typeof input !== "object" || input === null) {
      throw new TypeError(`${where}: trustedDocuments must be { documents, allowUntrusted? }`);
    }
    const { documents, allowUntrusted } = input;
    if (typeof documents !== "object" || documents === null || Array.isArray(documents)) {
      throw new TypeError(`${where}: trustedDocuments.documents must map document ids to texts`);
    }
    if (allowUntrusted !== undefined && typeof allowUntrusted !== "boolean") {
      throw new TypeError(`${where}: trustedDocuments.allowUntrusted must be a boolean`);
    }
    for (const id of Object.keys(documents)) {
      const text = documents[id];
      if (id === "" || id.length > MAX_ID_LENGTH || typeof text !== "string") {
        throw new TypeError(
          `${where}: trustedDocuments.documents[${
            JSON.stringify(id.slice(0, 80))
          }] must be a document text under an id of 1 to ${MAX_ID_LENGTH} characters`,
        );
      }
      this.#texts.set(id, text);
      this.#trusted.add(text);
    }
    this.allowUntrusted = allowUntrusted ?? false;
  }

  /** The text of the document `id` names, if the list holds it. */
  textOf(id: string): string | undefined {
    return this.#texts.get(id);
  }

  /** Whether a document given as text may run. */
  admits(text: string): boolean {
    return this.allowUntrusted || this.#trusted.has(text);
  }
}

/**
 * The document id a request names, from `documentId` (the GraphQL-over-HTTP
 * persisted documents proposal) or `extensions.persistedQuery.sha256Hash`
 * (Apollo's clients, read as `sha256:<hash>`); `undefined` when it names none,
 * a message when what it sends is no id.
 */
export function requestedId(
  documentId: unknown,
  extensions: Readonly<Record<string, unknown>> | undefined,
): { readonly id: string | undefined } | { readonly refused: string } {
  if (documentId !== undefined && documentId !== null) {
    if (typeof documentId !== "string" || documentId === "" || documentId.length > MAX_ID_LENGTH) {
      return { refused: `The documentId must be a string of 1 to ${MAX_ID_LENGTH} characters` };
    }
    return { id: documentId };
  }
  const persisted = extensions !== undefined && Object.hasOwn(extensions, "persistedQuery")
    ? extensions.persistedQuery
    : undefined;
  if (persisted === undefined || persisted === null) return { id: undefined };
  const hash = typeof persisted === "object" && Object.hasOwn(persisted, "sha256Hash")
    ? (persisted as Record<string, unknown>).sha256Hash
    : undefined;
  if (typeof hash !== "string" || !/^[0-9a-f]{64}$/i.test(hash)) {
    return { refused: "extensions.persistedQuery.sha256Hash must be a SHA-256 in hex" };
  }
  return { id: `sha256:${hash.toLowerCase()}` };
}

/** The checked allowlist of `opts.trustedDocuments`, if any; throws a `TypeError` naming `where`. */
export function trustedDocumentsOf(
  opts: { readonly trustedDocuments?: TrustedDocumentsOptions },
  where: string,
): TrustedDocuments | undefined {
  return opts.trustedDocuments === undefined
    ? undefined
    : new TrustedDocuments(opts.trustedDocuments, where);
}

/**
 * The text of the document a request names by `id` (its `query`, if it sent
 * one too, must be that text), or why it has none: no trusted document has
 * the id (`PERSISTED_QUERY_NOT_FOUND`, which tells Apollo's clients to send
 * the text instead), or the two disagree.
 */
export function namedText(
  id: string,
  query: string,
  lookup: (id: string) => string | undefined,
): { readonly text: string } | { readonly code: string; readonly message: string } {
  const text = lookup(id);
  if (text === undefined) {
    return {
      code: "PERSISTED_QUERY_NOT_FOUND",
      message: "No trusted document has this documentId; send the document's text",
    };
  }
  if (query !== "" && query !== text) {
    return {
      code: "BAD_REQUEST",
      message: "The documentId and the query name different documents; send one",
    };
  }
  return { text };
}
