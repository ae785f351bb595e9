// The client half of the GraphQL multipart request spec: an operation whose
// variables hold files goes as `operations` (files replaced by null), `map`
// and one part per distinct file.

import { isPlainObject, setOwn } from "../../tree/plain_data.ts";
import type { GraphQLOperation } from "./remote.ts";

/** The multipart body of an operation, or `undefined` when its variables hold no file. */
export function multipartBody(operation: GraphQLOperation): FormData | undefined {
  const paths = new Map<Blob, string[]>();
  const variables = withoutFiles(operation.variables, "variables", paths);
  if (paths.size === 0) return undefined;
  const form = new FormData();
  form.set("operations", JSON.stringify({ ...operation, variables }));
  // Part `i` is the `i`th file: the map names it by its paths, then it follows.
  form.set("map", JSON.stringify(Object.fromEntries([...paths.values()].entries())));
  [...paths.keys()].forEach((file, part) => form.set(String(part), file));
  return form;
}

/** Whether an operation's variables hold a file. */
export function holdsBlob(value: unknown): boolean {
  if (value instanceof Blob) return true;
  if (Array.isArray(value)) return value.some(holdsBlob);
  return isPlainObject(value) && Object.values(value).some(holdsBlob);
}

function withoutFiles(value: unknown, path: string, paths: Map<Blob, string[]>): unknown {
  if (value instanceof Blob) {
    paths.set(value, [...paths.get(value) ?? [], path]);
    return null;
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => withoutFiles(item, `${path}.${i}`, paths));
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(copy, key, withoutFiles(item, `${path}.${key}`, paths));
  }
  return copy;
}
