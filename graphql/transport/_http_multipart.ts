// File uploads over GraphQL-over-HTTP, as the GraphQL multipart request spec
// sends them: an `operations` part (the JSON body, its file variables null),
// a `map` part (which file part goes to which variable path) and the files.
// https://github.com/jaydenseric/graphql-multipart-request-spec

import { readBodyBytes } from "../../web/body.ts";
import { isPlainObject, setOwn } from "../../tree/plain_data.ts";
import { asFile } from "../../tree/bytes.ts";
import { badRequest, bodyRefusal, fromJson, type Params, Refusal } from "./_http_params.ts";

export const MULTIPART_FORM_DATA = "multipart/form-data";

/**
 * A browser sends a multipart form cross-site without asking first, so a
 * multipart request must carry a header only a preflighted request can.
 * Apollo's name is accepted too, so its upload clients work unchanged.
 */
const PREFLIGHT_HEADERS = ["graphql-require-preflight", "apollo-require-preflight"];

export interface MultipartLimits {
  readonly maxBytes: number;
  readonly maxQueryLength: number;
  readonly maxDepth: number;
  readonly timeoutMs: number;
}

/** The parameters of a multipart request, its files put where the map says. */
export async function readMultipart(request: Request, limits: MultipartLimits): Promise<Params> {
  if (!PREFLIGHT_HEADERS.some((name) => request.headers.has(name))) {
    await request.body?.cancel().catch(() => {});
    throw new Refusal(
      400,
      "A multipart request needs a GraphQL-Require-Preflight header (cross-site request forgery prevention)",
      "BAD_REQUEST",
    );
  }
  const read = await readBodyBytes(request, limits.maxBytes, limits.timeoutMs);
  if (!read.ok) throw bodyRefusal(read.reason, limits.maxBytes, limits.timeoutMs);
  let form: FormData;
  try {
    form = await new Response(read.bytes as BodyInit, {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw badRequest("The multipart body could not be parsed");
  }
  const operations = jsonPart(form, "operations");
  if (Array.isArray(operations)) {
    throw badRequest("Batched operations are not supported; send one operation per request");
  }
  const params = fromJson(operations, limits.maxQueryLength, limits.maxDepth);
  const map = jsonPart(form, "map");
  if (!isPlainObject(map)) {
    throw badRequest('The map part must be a JSON object: { "<part>": ["variables.<path>"] }');
  }
  const variables: Record<string, unknown> = { ...params.variables };
  for (const [part, paths] of Object.entries(map)) {
    const file = form.get(part);
    if (!(file instanceof Blob)) {
      throw badRequest(`The map names the part ${JSON.stringify(part)}, which is not a file`);
    }
    if (!Array.isArray(paths) || paths.length === 0) {
      throw badRequest(`The map must give the part ${JSON.stringify(part)} a list of paths`);
    }
    // A file's media type by its essence, as every runtime's parser would give it.
    for (const path of paths) place(variables, path, asFile(file));
  }
  return { ...params, variables };
}

function jsonPart(form: FormData, name: string): unknown {
  const text = form.get(name);
  if (typeof text !== "string") throw badRequest(`The multipart body needs a ${name} part`);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The ${name} part is not valid JSON`);
  }
}

/**
 * Puts a file at a `variables.<path>` the operations hold as null. Only own
 * slots that exist are written, so a path can never reach a prototype.
 */
function place(variables: Record<string, unknown>, path: unknown, file: Blob): void {
  const steps = typeof path === "string" ? path.split(".") : [];
  const refuse = () =>
    badRequest(`The map path ${JSON.stringify(path)} does not name a null variable`);
  if (steps.length < 2 || steps[0] !== "variables") throw refuse();
  let holder: unknown = variables;
  for (let at = 1; at < steps.length; at++) {
    const step = steps[at];
    const slots = holder as Record<string, unknown>;
    // An array's slots by their index as JSON writes it, a plain object's by their key.
    const held = Array.isArray(holder) ? /^(0|[1-9]\d*)$/.test(step) : isPlainObject(holder);
    if (!held || !Object.hasOwn(slots, step)) throw refuse();
    if (at < steps.length - 1) {
      holder = slots[step];
    } else if (slots[step] !== null) {
      throw refuse();
    } else {
      setOwn(slots, step, file);
    }
  }
}
