// Maps a line of the npm build's `.d.ts` back to the library source through
// the declaration map the build writes beside it (`x.d.ts.map`).

import { dirname, join } from "node:path";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The values of one base64 VLQ segment. */
function decode(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

interface SourceMap {
  readonly sources: readonly string[];
  readonly mappings: string;
}

const maps = new Map<string, Promise<SourceMap | undefined>>();

const readMap = (path: string) =>
  Deno.readTextFile(`${path}.map`).then((text) => JSON.parse(text) as SourceMap, () => undefined);

/**
 * The 1-based line where a declaration starts whose full start (leading
 * comments and line breaks included, as the compiler's trace gives it) is at
 * 1-based `line`, 0-based `character`.
 */
export async function declarationLine(path: string, line: number, character: number) {
  const lines = (await Deno.readTextFile(path)).split("\n");
  const rest = [lines[line - 1].slice(character), ...lines.slice(line)].join("\n");
  const trivia = /^(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*)*/.exec(rest)![0];
  return line + trivia.split("\n").length - 1;
}

/**
 * Where line `line` (1-based) of a `.d.ts` came from, as a path relative to
 * the package's `src/` folder and a 1-based line; the `.d.ts` position when the
 * file has no map or the line no mapping.
 */
export async function sourceOf(path: string, line: number): Promise<string> {
  if (!maps.has(path)) maps.set(path, readMap(path));
  const map = await maps.get(path);
  if (map === undefined) return `${path}:${line}`;
  // Source index and source line are deltas running across the whole file.
  let source = 0;
  let sourceLine = 0;
  let found: { source: number; sourceLine: number } | undefined;
  const lines = map.mappings.split(";");
  for (let index = 0; index < lines.length; index++) {
    let first: { source: number; sourceLine: number } | undefined;
    for (const segment of lines[index].split(",").filter((text) => text.length > 0)) {
      const values = decode(segment);
      if (values.length < 4) continue;
      source += values[1];
      sourceLine += values[2];
      first ??= { source, sourceLine };
      found = { source, sourceLine };
    }
    // The line's first token is the declaration's start; a line with no
    // mapping of its own (a wrapped declaration) takes the last one before it.
    const at = index === line - 1 ? first ?? found : undefined;
    if (at !== undefined) {
      const file = join(dirname(path), map.sources[at.source]);
      const cut = file.lastIndexOf("/src/");
      return `${cut < 0 ? file : file.slice(cut + "/src/".length)}:${at.sourceLine + 1}`;
    }
  }
  return `${path}:${line}`;
}
