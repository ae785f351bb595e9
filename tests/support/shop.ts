// The shop of the agreement suite: a tree with enums, unions, optional and
// nullable fields, nested objects, arrays, dates, captures and files over an in-memory
// store, and the table of calls every surface must answer alike.
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { HttpError } from "@ramify/api/tree";
import type { Step } from "./agreement.ts";

const Status = z.enum(["draft", "live"]);
const Shape = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("circle"), r: z.number() }).meta({ title: "Circle" }),
  z.object({ kind: z.literal("square"), side: z.number() }).meta({ title: "Square" }),
]);
const Fields = z.object({
  name: z.string().min(1),
  status: Status,
  note: z.string().optional(),
  parent: z.string().nullable(),
  tags: z.array(z.string()),
  size: z.object({ w: z.number(), h: z.number() }),
  shape: Shape,
  at: z.date(),
});
const Item = Fields.extend({ id: z.string() }).meta({ title: "Item" });
type ItemValue = z.output<typeof Item>;

const SEED: ItemValue[] = [
  {
    id: "1",
    name: "Lamp",
    status: "live",
    note: "bright",
    parent: null,
    tags: ["light"],
    size: { w: 1, h: 2 },
    shape: { kind: "circle", r: 3 },
    at: new Date("2026-01-01T00:00:00.000Z"),
  },
  {
    id: "2",
    name: "Desk",
    status: "draft",
    parent: "1",
    tags: [],
    size: { w: 4, h: 5 },
    shape: { kind: "square", side: 6 },
    at: new Date("2026-02-01T00:00:00.000Z"),
  },
];
let items = new Map<string, ItemValue>();
/** Puts the store back to its seed, before each call. */
export const reset = () => items = new Map(SEED.map((item) => [item.id, structuredClone(item)]));
const found = (itemId: string) => {
  const item = items.get(itemId);
  if (item === undefined) throw new HttpError(404, `No item ${itemId}`);
  return item;
};

export const tree = api({
  items: api({
    list: op(({ status }) => [...items.values()].filter((i) => !status || i.status === status), {
      tags: { readOnly: true },
      input: z.object({ status: Status.optional() }),
      output: z.array(Item),
    }),
    add: op((fields) => {
      if ([...items.values()].some((i) => i.name === fields.name)) {
        throw new HttpError(409, `${fields.name} exists`);
      }
      const item = { ...fields, id: String(items.size + 1) };
      items.set(item.id, item);
      return { ...item, secret: "hidden" };
    }, { input: Fields, output: Item }),
  }, {
    fallback: {
      name: "itemId",
      subtree: api({
        read: op(({ itemId }) => found(itemId), http.get, {
          input: z.object({ itemId: z.string() }),
          output: Item,
        }),
        attach: op(async ({ itemId, file, label }) => {
          found(itemId);
          return { itemId, name: file.name, text: await file.text(), ...(label ? { label } : {}) };
        }, {
          input: z.object({
            itemId: z.string(),
            file: z.file().max(64),
            label: z.string().optional(),
          }),
          output: z.object({
            itemId: z.string(),
            name: z.string(),
            text: z.string(),
            label: z.string().optional(),
          }),
        }),
        attachMany: op(async ({ itemId, files }) => {
          found(itemId);
          return { itemId, texts: await Promise.all(files.map((file) => file.text())) };
        }, {
          input: z.object({ itemId: z.string(), files: z.array(z.file()).min(1) }),
          output: z.object({ itemId: z.string(), texts: z.array(z.string()) }),
        }),
        rename: op(({ itemId, name }) => {
          const item = found(itemId);
          item.name = name;
          return item;
        }, { input: z.object({ itemId: z.string(), name: z.string().min(1) }), output: Item }),
      }),
    },
  }),
  boom: op(
    (): string => {
      throw new Error("secret failure");
    },
    http.get,
    { output: z.string() },
  ),
});

export type Kind = "input" | "fault" | "notFound" | "conflict";
export type Outcome = { readonly value: unknown } | { readonly error: Kind };
export interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly expect: Outcome;
  /** The call targets a leaf that takes files: a surface that cannot carry them must refuse it. */
  readonly files?: true;
}

const lamp = SEED[0];
const desk = SEED[1];
const fresh = (id: string, fields: Omit<ItemValue, "id">): ItemValue => ({ id, ...fields });
const newItem = (extra: Partial<z.input<typeof Fields>> = {}): Omit<ItemValue, "id"> => ({
  name: "Chair",
  status: "draft",
  parent: null,
  tags: ["wood"],
  size: { w: 1, h: 1 },
  shape: { kind: "square", side: 1 },
  at: new Date("2026-03-01T00:00:00.000Z"),
  ...extra,
} as Omit<ItemValue, "id">);

const note = new File(["hello ✓"], "note.txt", { type: "text/plain" });

export const CASES: Case[] = [
  { name: "list all", steps: ["items", "list"], expect: { value: [lamp, desk] } },
  {
    name: "list by enum",
    steps: ["items", "list"],
    input: { status: "live" },
    expect: { value: [lamp] },
  },
  {
    name: "list by the other enum",
    steps: ["items", "list"],
    input: { status: "draft" },
    expect: { value: [desk] },
  },
  {
    name: "list with an unknown enum value",
    steps: ["items", "list"],
    input: { status: "gone" },
    expect: { error: "input" },
  },
  {
    name: "read: optional field present, null parent, circle",
    steps: ["items", ["itemId", "1"], "read"],
    expect: { value: lamp },
  },
  {
    name: "read: optional field absent, parent set, square",
    steps: ["items", ["itemId", "2"], "read"],
    expect: { value: desk },
  },
  {
    name: "read a missing item",
    steps: ["items", ["itemId", "9"], "read"],
    expect: { error: "notFound" },
  },
  {
    name: "read a capture with odd characters",
    steps: ["items", ["itemId", "a b/c"], "read"],
    expect: { error: "notFound" },
  },
  {
    name: "rename",
    steps: ["items", ["itemId", "2"], "rename"],
    input: { name: "Table" },
    expect: { value: { ...desk, name: "Table" } },
  },
  {
    name: "rename to empty",
    steps: ["items", ["itemId", "2"], "rename"],
    input: { name: "" },
    expect: { error: "input" },
  },
  {
    name: "rename a missing item",
    steps: ["items", ["itemId", "9"], "rename"],
    input: { name: "X" },
    expect: { error: "notFound" },
  },
  {
    name: "add (a hidden key is stripped)",
    steps: ["items", "add"],
    input: newItem(),
    expect: { value: fresh("3", newItem()) },
  },
  {
    name: "add a duplicate",
    steps: ["items", "add"],
    input: newItem({ name: "Lamp" }),
    expect: { error: "conflict" },
  },
  {
    name: "add with a note",
    steps: ["items", "add"],
    input: newItem({ name: "Rug", note: "red" }),
    expect: { value: fresh("3", newItem({ name: "Rug", note: "red" })) },
  },
  {
    name: "add with a parent",
    steps: ["items", "add"],
    input: newItem({ name: "Shelf", parent: "1" }),
    expect: { value: fresh("3", newItem({ name: "Shelf", parent: "1" })) },
  },
  {
    name: "add a circle",
    steps: ["items", "add"],
    input: newItem({ name: "Ball", shape: { kind: "circle", r: 2 } }),
    expect: { value: fresh("3", newItem({ name: "Ball", shape: { kind: "circle", r: 2 } })) },
  },
  {
    name: "add with many tags",
    steps: ["items", "add"],
    input: newItem({ name: "Box", tags: ["a", "b", "c"] }),
    expect: { value: fresh("3", newItem({ name: "Box", tags: ["a", "b", "c"] })) },
  },
  {
    name: "add with no tags",
    steps: ["items", "add"],
    input: newItem({ name: "Bin", tags: [] }),
    expect: { value: fresh("3", newItem({ name: "Bin", tags: [] })) },
  },
  {
    name: "add live",
    steps: ["items", "add"],
    input: newItem({ name: "Sign", status: "live" }),
    expect: { value: fresh("3", newItem({ name: "Sign", status: "live" })) },
  },
  {
    name: "add with another date",
    steps: ["items", "add"],
    input: newItem({ name: "Clock", at: new Date("2030-12-31T23:59:59.000Z") }),
    expect: {
      value: fresh("3", newItem({ name: "Clock", at: new Date("2030-12-31T23:59:59.000Z") })),
    },
  },
  {
    name: "add with fractional sizes",
    steps: ["items", "add"],
    input: newItem({ name: "Mat", size: { w: 0.5, h: 1.25 } }),
    expect: { value: fresh("3", newItem({ name: "Mat", size: { w: 0.5, h: 1.25 } })) },
  },
  {
    name: "add with an empty name",
    steps: ["items", "add"],
    input: newItem({ name: "" }),
    expect: { error: "input" },
  },
  {
    name: "add with a negative-free unknown status",
    steps: ["items", "add"],
    input: { ...newItem(), status: "gone" },
    expect: { error: "input" },
  },
  {
    name: "add without a size",
    steps: ["items", "add"],
    input: (({ size: _, ...rest }) => rest)(newItem()),
    expect: { error: "input" },
  },
  {
    name: "add with a wrong shape",
    steps: ["items", "add"],
    input: { ...newItem(), shape: { kind: "triangle" } },
    expect: { error: "input" },
  },
  {
    name: "add with a size of the wrong type",
    steps: ["items", "add"],
    input: { ...newItem(), size: { w: "wide", h: 1 } },
    expect: { error: "input" },
  },
  {
    name: "add with tags that are not strings",
    steps: ["items", "add"],
    input: { ...newItem(), tags: [1, 2] },
    expect: { error: "input" },
  },
  {
    name: "add with a date that is not one",
    steps: ["items", "add"],
    input: { ...newItem(), at: "yesterday" },
    expect: { error: "input" },
  },
  {
    name: "a capture stays a string (01 is not 1)",
    steps: ["items", ["itemId", "01"], "read"],
    expect: { error: "notFound" },
  },
  {
    name: "add with a non-ASCII name",
    steps: ["items", "add"],
    input: newItem({ name: "Stühl ✓" }),
    expect: { value: fresh("3", newItem({ name: "Stühl ✓" })) },
  },
  {
    name: "add without the required nullable parent",
    steps: ["items", "add"],
    input: (({ parent: _, ...rest }) => rest)(newItem({ name: "Orphan" })),
    expect: { error: "input" },
  },
  {
    name: "add with null for an optional (not nullable) note",
    steps: ["items", "add"],
    input: { ...newItem({ name: "Nil" }), note: null },
    expect: { error: "input" },
  },
  {
    name: "rename to a long name",
    steps: ["items", ["itemId", "1"], "rename"],
    input: { name: "L".repeat(200) },
    expect: { value: { ...lamp, name: "L".repeat(200) } },
  },
  { name: "a crash", steps: ["boom"], expect: { error: "fault" } },
  {
    name: "attach a file",
    steps: ["items", ["itemId", "1"], "attach"],
    input: { file: note },
    files: true,
    expect: { value: { itemId: "1", name: "note.txt", text: "hello ✓" } },
  },
  {
    name: "attach a file with a label",
    steps: ["items", ["itemId", "2"], "attach"],
    input: { file: note, label: "greeting" },
    files: true,
    expect: { value: { itemId: "2", name: "note.txt", text: "hello ✓", label: "greeting" } },
  },
  {
    name: "attach a file over the size limit",
    steps: ["items", ["itemId", "1"], "attach"],
    input: { file: new File(["x".repeat(65)], "big.txt") },
    files: true,
    expect: { error: "input" },
  },
  {
    name: "attach a file to a missing item",
    steps: ["items", ["itemId", "9"], "attach"],
    input: { file: note },
    files: true,
    expect: { error: "notFound" },
  },
  {
    name: "attach without the file",
    steps: ["items", ["itemId", "1"], "attach"],
    input: { label: "empty" },
    files: true,
    expect: { error: "input" },
  },
  {
    name: "attach several files, one of them twice",
    steps: ["items", ["itemId", "1"], "attachMany"],
    input: { files: [note, new Blob(["blob"]), note] },
    files: true,
    expect: { value: { itemId: "1", texts: ["hello ✓", "blob", "hello ✓"] } },
  },
];
