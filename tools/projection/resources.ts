// The resources of a tree: every `readOnly` leaf that is not streaming, not a
// prompt, not `openWorld` and takes no input but its captures (its input
// schema names no other property, or it has none), unless `meta.tools` says
// otherwise (`ToolsMeta`, tree/tools_meta.ts). `resource: true` also takes a
// leaf with optional inputs besides its captures, or an `openWorld` one: a
// client listing and reading resources must not start, unasked, work whose
// options a caller would choose, or that reaches past the server. Without
// captures it is a listed resource; with them, a resource template. Its URI
// is the path the HTTP surface serves it at (uri_template.ts), read from the
// one HTTP projection of the tree that the router shares (memoized per tree),
// so that a URI and a route name one thing. Each entry's call, and what its
// subscriptions (`updates`) and completions (`complete`) call, is the
// catalogue's one prepared call of that leaf. Used by the MCP server
// (tools/server/), which lists, reads and follows them.

import { type CatalogueEntry, catalogueOf } from "../../tree/catalogue.ts";
import type { Node } from "../../tree/node.ts";
import type { LeafCall } from "../../tree/call.ts";
import { holdsFile, type JsonSchema } from "../../tree/schema.ts";
import { OCTET_STREAM, soleMediaType } from "../../tree/bytes.ts";
import { labelOf } from "../../tree/leaves.ts";
import { httpProjection } from "../../route/projection.ts";
import { listOperations } from "../../route/route.ts";
import { joinPath } from "./_names.ts";
import { placeOf, schemaOf, titleOf } from "./tools.ts";
import { bySpecificity, type Segment, segmentsOf, uriText } from "./uri_template.ts";

/** A leaf called on a resource's behalf, with the captures it binds. */
interface SideCall {
  readonly call: LeafCall;
  /** The leaf: a subscriber is the principal its guards establish. */
  readonly leaf: Node;
  readonly captures: readonly string[];
  readonly label: string;
}

/** A resource or a resource template, with what the server needs to read it. */
export interface ResourceEntry {
  /** The URI (a listed resource) or the URI template (a template). */
  readonly uri: string;
  readonly segments: readonly Segment[];
  /** The capture names, in path order: the template's variables. */
  readonly captures: readonly string[];
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  /** The media type the output schema (or `meta.tools.mimeType`) gives, when it gives one. */
  readonly mimeType?: string;
  readonly call: LeafCall;
  /** The media type of bytes the output schema declares, when it names exactly one. */
  readonly bytesType?: string;
  /** The input schema's property for each capture, for its `enum`. */
  readonly captureSchemas: Readonly<Record<string, JsonSchema | undefined>>;
  /** The streaming leaf whose items say the resource changed. */
  readonly updates?: SideCall;
  /** The leaf completing each capture. */
  readonly completers: Readonly<Record<string, SideCall>>;
}

/** The resources (no captures) and the templates of a tree, in tree order. */
export interface Resources {
  /** The URIs' scheme (the `resourceScheme` option). */
  readonly scheme: string;
  readonly listed: readonly ResourceEntry[];
  /** Most specific first: a URI is read by the first template it fits. */
  readonly templates: readonly ResourceEntry[];
}

/**
 * Every resource of the tree; a URI given twice, a `meta.tools.resource:
 * true` on a leaf that cannot be one, or an `updates` or `complete` naming no
 * fitting leaf is an error naming the leaf.
 */
export function collectResources(root: Node, caller: string, scheme: string): Resources {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) {
    throw new Error(`${caller}: resourceScheme ${JSON.stringify(scheme)} is not a URI scheme`);
  }
  const leaves = catalogueOf(root).entries;
  const byLabel = new Map(leaves.map((entry) => [entry.label, entry]));
  let paths: Map<string, string> | undefined;
  const listed: ResourceEntry[] = [];
  const templates: ResourceEntry[] = [];
  const byUri = new Map<string, string>();
  for (const entry of leaves) {
    const own = entry.leaf.meta.tools;
    if (own === false || own?.resource === false) continue;
    const input = schemaOf(entry, "input", caller);
    const why = whyNot(entry, input) ??
      (own?.resource === true ? undefined : whyOptInOnly(entry, input));
    if (why !== undefined) {
      if (own?.resource === true) {
        throw new Error(`${caller}: ${placeOf(entry)} has meta.tools.resource but ${why}`);
      }
      continue;
    }
    // Computed once, only for a tree that has resources: the routes the HTTP surface serves.
    paths ??= new Map(
      listOperations(httpProjection(root)).map((operation) => [
        labelOf(operation.steps),
        operation.path,
      ]),
    );
    const resource = resourceOf(entry, input, scheme, paths, byLabel, caller);
    const other = byUri.get(resource.uri);
    if (other !== undefined) {
      throw new Error(
        `${caller}: ${other} and ${placeOf(entry)} both get the resource URI ${resource.uri}`,
      );
    }
    byUri.set(resource.uri, placeOf(entry));
    (resource.captures.length === 0 ? listed : templates).push(resource);
  }
  // Stable: templates equally specific keep their tree order.
  templates.sort((a, b) => bySpecificity(a.segments, b.segments));
  return { scheme, listed, templates };
}

/**
 * Why the leaf is no resource unless it opts in (`meta.tools.resource: true`):
 * it reaches an open world, or takes input besides its captures (optional,
 * else whyNot has said so). A leaf without an input schema takes an open
 * input, of which a URI gives its captures alone: no more.
 */
function whyOptInOnly(entry: CatalogueEntry, input: JsonSchema | undefined): string | undefined {
  if (entry.tags.openWorld === true) return "is openWorld";
  const named = Object.keys((input?.properties as Record<string, unknown> | undefined) ?? {});
  const extra = named.filter((name) => !entry.captures.includes(name));
  return extra.length === 0 ? undefined : `takes input beyond its captures (${extra.join(", ")})`;
}

/** Why the leaf can be no resource, or undefined when it can. */
function whyNot(entry: CatalogueEntry, input: JsonSchema | undefined): string | undefined {
  const tags = entry.tags;
  if (tags.readOnly !== true) return "is not readOnly";
  if (tags.streaming === true) return "is streaming";
  if (entry.leaf.meta.prompt !== undefined) return "is a prompt";
  if (holdsFile(input)) return "takes files";
  const required = (input?.required as string[] | undefined) ?? [];
  const extra = required.filter((name) => !entry.captures.includes(name));
  return extra.length === 0
    ? undefined
    : `requires input beyond its captures (${extra.join(", ")})`;
}

function resourceOf(
  entry: CatalogueEntry,
  input: JsonSchema | undefined,
  scheme: string,
  paths: ReadonlyMap<string, string>,
  byLabel: ReadonlyMap<string, CatalogueEntry>,
  caller: string,
): ResourceEntry {
  const { leaf, names, captures } = entry;
  const own = leaf.meta.tools === false ? undefined : leaf.meta.tools;
  const path = paths.get(entry.label);
  if (path === undefined) {
    throw new Error(`${caller}: ${placeOf(entry)} has no HTTP route to take its resource URI from`);
  }
  const segments = segmentsOf(path);
  const output = schemaOf(entry, "output", caller);
  const bytes = entry.bytes;
  const description = own?.description ?? leaf.meta.description;
  const mimeType = own?.mimeType ?? mediaTypeOf(output, bytes);
  const properties = input?.properties as Record<string, JsonSchema> | undefined;
  const side = (label: string, what: string, streaming: boolean): SideCall => {
    const target = byLabel.get(label);
    const problem = target === undefined
      ? "names no leaf"
      : (target.tags.streaming === true) !== streaming
      ? streaming ? "names a leaf that is not streaming" : "names a streaming leaf"
      : target.captures.some((name) => !(streaming ? captures : []).includes(name))
      ? "names a leaf with captures the resource does not bind"
      : undefined;
    if (problem !== undefined || target === undefined) {
      throw new Error(`${caller}: ${what} of ${placeOf(entry)} (${label}) ${problem}`);
    }
    return { call: target.call, leaf: target.leaf, captures: target.captures, label };
  };
  const completers: Record<string, SideCall> = {};
  for (const [capture, label] of Object.entries(own?.complete ?? {})) {
    if (!captures.includes(capture)) {
      throw new Error(
        `${caller}: meta.tools.complete of ${placeOf(entry)} names no capture ${capture}`,
      );
    }
    completers[capture] = side(label, `meta.tools.complete.${capture}`, false);
  }
  return {
    uri: uriText(scheme, segments),
    segments,
    captures: segments.flatMap((segment) => "capture" in segment ? [segment.capture] : []),
    name: own?.name ?? (names.length === 0 ? "root" : joinPath(names)),
    title: own?.title ?? titleOf(names),
    ...(typeof description === "string" ? { description } : {}),
    ...(mimeType === undefined ? {} : { mimeType }),
    call: entry.call,
    bytesType: soleMediaType(bytes),
    captureSchemas: Object.fromEntries(captures.map((name) => [name, properties?.[name]])),
    ...(own?.updates === undefined
      ? {}
      : { updates: side(own.updates, "meta.tools.updates", true) }),
    completers,
  };
}

/** A string is text, bytes their one declared media type, anything else JSON; no schema, unknown. */
function mediaTypeOf(
  output: JsonSchema | undefined,
  bytes: { readonly types: readonly string[] } | undefined,
): string | undefined {
  if (bytes !== undefined) return soleMediaType(bytes) ?? OCTET_STREAM;
  if (output === undefined) return undefined;
  return output.type === "string" ? "text/plain" : "application/json";
}
