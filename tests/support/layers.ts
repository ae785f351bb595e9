// The layer table of docs/architecture.md, read as the rule itself: one
// source for the page and tests/architecture_test.ts. A row names a layer (a
// folder ending in `/`, or one file), what it may import, and what it may
// import for types only; a file belongs to the row naming it, else to the
// deepest folder row above it.
import type { Edge } from "./sources.ts";

/** What one layer may import besides itself. */
export interface Allowance {
  /** Layers whose every file may be imported. */
  readonly layers: readonly string[];
  /** Layers that may be imported for types only. */
  readonly types: readonly string[];
}

/** The layers of a page: each row's layer and its allowance. */
export type LayerTable = ReadonlyMap<string, Allowance>;

const HEADER = /^\|\s*layer\s*\|\s*may import\s*\|\s*types only of\s*\|/;

/** The backticked names of a table cell. */
const namesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

/**
 * The layer table of a markdown page: the first table whose header reads
 * `| layer | may import | types only of | ...`. Throws when there is none,
 * or when a row names a layer twice, so that the check cannot pass by
 * reading nothing.
 */
export function layerTable(markdown: string): LayerTable {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => HEADER.test(line));
  if (start < 0) throw new Error("no layer table (| layer | may import | types only of |)");
  const table = new Map<string, Allowance>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [layerCell, importCell, typeCell] = line.split("|").slice(1);
    const [layer] = namesIn(layerCell);
    if (layer === undefined) throw new Error(`a layer row names no layer: ${line}`);
    if (table.has(layer)) throw new Error(`the layer ${layer} has two rows`);
    table.set(layer, { layers: namesIn(importCell), types: namesIn(typeCell ?? "") });
  }
  if (table.size === 0) throw new Error("the layer table has no rows");
  return table;
}

/** The layer a library file belongs to, if any row covers it. */
export function layerOf(table: LayerTable, path: string): string | undefined {
  if (table.has(path)) return path;
  let best: string | undefined;
  for (const layer of table.keys()) {
    if (layer.endsWith("/") && path.startsWith(layer) && layer.length > (best?.length ?? 0)) {
      best = layer;
    }
  }
  return best;
}

/** Imports a layer may not make, and files that belong to no layer. */
export function layerOffences(
  table: LayerTable,
  files: readonly string[],
  edges: readonly Edge[],
): string[] {
  const offences = files.filter((file) => layerOf(table, file) === undefined)
    .map((file) => `no layer for ${file}`);
  for (const edge of edges) {
    const from = layerOf(table, edge.from);
    const to = layerOf(table, edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    const allowed = table.get(from)!;
    const ok = allowed.layers.includes(to) || (edge.typeOnly && allowed.types.includes(to));
    if (!ok) offences.push(`${edge.from} (${from}) may not import ${edge.to} (${to})`);
  }
  return offences;
}
