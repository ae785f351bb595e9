// Between interpretation and emission: the names of types that have none of
// their own, settled over every place they are met before any is named, so a
// type shared by several leaves is named by the rule (`isBetterName`, the one
// OpenAPI follows too), never by which leaf came first.

import { isBetterName } from "../../tree/schema.ts";
import type { RegistryState } from "./_definitions.ts";
import { keyOf } from "./_emit.ts";
import type { Shape, Use } from "./_interpret.ts";

/**
 * Records the name each unnamed type in `use` would take from where it sits,
 * keeping the better one per type. `asArguments`: the root is an argument
 * list, no type, so only what it holds is recorded. Gives whether there was
 * any such type: where it sits is all that names one, so for a schema without
 * one every other place gives nothing either.
 */
export function planNames(
  state: RegistryState,
  use: Use,
  direction: "input" | "output",
  asArguments = false,
  memo: WeakMap<Shape, string> = new WeakMap(),
): boolean {
  const seen = new Set<Shape>();
  let recorded = false;
  const visit = (shape: Shape, record: boolean) => {
    if (seen.has(shape)) return;
    seen.add(shape);
    if (shape.kind === "scalar") return;
    if (shape.kind === "list") return visit(shape.item.shape, true);
    if (record && shape.title === undefined) {
      recorded = true;
      const key = keyOf(shape, direction, memo);
      const current = state.planned.get(key);
      if (current === undefined || isBetterName(shape.hint, current)) {
        state.planned.set(key, shape.hint);
      }
    }
    if (shape.kind === "object") {
      for (const field of shape.fields) {
        visit(field.type.shape, true);
      }
    }
    if (shape.kind === "union") { for (const member of shape.members) visit(member, true); }
  };
  visit(use.shape, !(asArguments && use.shape.kind === "object"));
  return recorded;
}
