import assert from "node:assert/strict";
import fc from "fast-check";
import { compiledCharMatcher } from "../../../http/server/matchers/compiled/matcher.ts";
import { radixMatcher } from "../../../http/server/matchers/radix/matcher.ts";
import { trieMatcher } from "../../../http/server/matchers/trie/matcher.ts";
import type {
  MatcherStrategy,
  PatternSegment,
  RouteDefinition,
} from "../../../http/server/matchers/types.ts";

const strategies: [string, MatcherStrategy][] = [
  ["trie", trieMatcher],
  ["radix", radixMatcher],
  ["compiled", compiledCharMatcher],
];

/** `/books/{id}` into pattern segments; `/` is the root. */
function parse(pattern: string): PatternSegment[] {
  if (pattern === "/") return [];
  return pattern.slice(1).split("/").map((part) =>
    part.startsWith("{") && part.endsWith("}")
      ? { kind: "param", name: part.slice(1, -1) }
      : { kind: "static", value: part }
  );
}

/** Each route's value is its own pattern text, so expectations read naturally. */
function definitions(patterns: readonly string[]): RouteDefinition<string>[] {
  return patterns.map((pattern) => ({ segments: parse(pattern), value: pattern }));
}

/** A request path, and the route and params it must match (nothing: a miss). */
type Request = readonly [path: string, route?: string, params?: readonly string[]];

interface CaseGroup {
  readonly name: string;
  readonly routes: readonly string[];
  readonly requests: readonly Request[];
}

const many = Array.from({ length: 300 }, (_, i) => i);

const groups: CaseGroup[] = [
  {
    name: "root",
    routes: ["/", "/a"],
    requests: [["/", "/"], ["/a", "/a"], ["//"], ["/b"], ["/a/"]],
  },
  {
    name: "no root route",
    routes: ["/a", "/{x}/b"],
    requests: [["/"], ["//"], ["/a", "/a"]],
  },
  {
    name: "not a pathname",
    routes: ["/", "/{x}", "/books/{id}"],
    requests: [[""], ["a"], ["books/1"], ["x/"]],
  },
  {
    name: "static",
    routes: ["/health", "/books/list", "/books/list/all"],
    requests: [
      ["/health", "/health"],
      ["/books/list", "/books/list"],
      ["/books/list/all", "/books/list/all"],
      ["/HEALTH"],
      ["/healthz"],
      ["/healt"],
      ["/books/lis"],
      ["/books/list/al"],
      ["/books/list/all/x"],
    ],
  },
  {
    name: "paths that are prefixes of routes",
    routes: ["/books/list/all", "/books/{id}/chapters/{n}"],
    requests: [["/books"], ["/books/list"], ["/books/1"], ["/books/1/chapters"], ["/b"], ["/"]],
  },
  {
    name: "params",
    routes: ["/books/{id}", "/books/{id}/chapters/{chapter}", "/authors/{a}/books/{b}/notes"],
    requests: [
      ["/books/42", "/books/{id}", ["42"]],
      ["/books/42/chapters/7", "/books/{id}/chapters/{chapter}", ["42", "7"]],
      ["/authors/ann/books/b1/notes", "/authors/{a}/books/{b}/notes", ["ann", "b1"]],
      ["/books/42/chapters"],
      ["/authors/ann/books/b1"],
      ["/authors/ann/books/b1/notes/x"],
    ],
  },
  {
    name: "static beats param",
    routes: ["/books/list", "/books/{id}"],
    requests: [
      ["/books/list", "/books/list", []],
      ["/books/listing", "/books/{id}", ["listing"]],
      ["/books/lis", "/books/{id}", ["lis"]],
      ["/books/42", "/books/{id}", ["42"]],
    ],
  },
  {
    name: "backtracking",
    routes: ["/a/b/c", "/a/{x}/d"],
    requests: [
      ["/a/b/c", "/a/b/c", []],
      ["/a/b/d", "/a/{x}/d", ["b"]],
      ["/a/z/d", "/a/{x}/d", ["z"]],
      ["/a/b/e"],
      ["/a/b"],
    ],
  },
  {
    name: "backtracking over several levels",
    routes: ["/a/b/c/d", "/a/{x}/c/e", "/{y}/b/c/f"],
    requests: [
      ["/a/b/c/d", "/a/b/c/d", []],
      ["/a/b/c/e", "/a/{x}/c/e", ["b"]],
      ["/a/b/c/f", "/{y}/b/c/f", ["a"]],
      ["/a/b/c/g"],
    ],
  },
  {
    name: "backtracking drops the params of the failed branch",
    routes: ["/{a}/s/{t}/x", "/{a}/{b}/{c}/y"],
    requests: [
      ["/1/s/2/x", "/{a}/s/{t}/x", ["1", "2"]],
      ["/1/s/2/y", "/{a}/{b}/{c}/y", ["1", "s", "2"]],
      ["/1/s/2/z"],
    ],
  },
  {
    name: "param at the root",
    routes: ["/{x}", "/{x}/items", "/static"],
    requests: [
      ["/foo", "/{x}", ["foo"]],
      ["/static", "/static", []],
      ["/static/items", "/{x}/items", ["static"]],
      ["/foo/items", "/{x}/items", ["foo"]],
      ["/"],
      ["/foo/bar"],
    ],
  },
  {
    name: "consecutive params",
    routes: ["/{a}/{b}/{c}", "/{a}/{b}"],
    requests: [
      ["/1/2/3", "/{a}/{b}/{c}", ["1", "2", "3"]],
      ["/1/2", "/{a}/{b}", ["1", "2"]],
      ["/1"],
      ["/1//3"],
      ["//2/3"],
      ["/1/2/3/4"],
    ],
  },
  {
    name: "trailing slash and double slash",
    routes: ["/books/list", "/books/{id}"],
    requests: [
      ["/books/list/"],
      ["/books/"],
      ["/books//"],
      ["//books/list"],
      ["/books//list"],
      ["/books/1/"],
      ["/books/list//"],
    ],
  },
  {
    name: "an empty segment never matches a param",
    routes: ["/{a}", "/x/{a}/y", "/x/{a}"],
    requests: [["/"], ["//"], ["/x//y"], ["/x/"], ["/x//"], ["/x", "/{a}", ["x"]]],
  },
  {
    name: "prefixes that share characters",
    routes: ["/user", "/users", "/usersettings", "/users/{id}", "/user/{name}"],
    requests: [
      ["/use"],
      ["/user", "/user", []],
      ["/users", "/users", []],
      ["/usersettings", "/usersettings", []],
      ["/usersetting"],
      ["/usersettingsx"],
      ["/userx"],
      ["/users/1", "/users/{id}", ["1"]],
      ["/user/bob", "/user/{name}", ["bob"]],
      ["/usersettings/1"],
    ],
  },
  {
    name: "unicode and percent-encoded segments stay raw",
    routes: ["/café/{name}", "/files/{path}", "/%E2%9C%93/{x}", "/emoji/😀"],
    requests: [
      ["/café/Zoë", "/café/{name}", ["Zoë"]],
      ["/files/a%2Fb", "/files/{path}", ["a%2Fb"]],
      ["/files/%F0%9F%98%80", "/files/{path}", ["%F0%9F%98%80"]],
      ["/%E2%9C%93/%20", "/%E2%9C%93/{x}", ["%20"]],
      ["/emoji/😀", "/emoji/😀", []],
      ["/✓/x"],
      ["/caf%C3%A9/x"],
      ["/emoji/%F0%9F%98%80"],
      ["/emoji/\uD83D"],
      ["/emoji/😀😀"],
    ],
  },
  {
    name: "very long paths and many segments",
    routes: ["/{a}", "/a/{b}/c", "/deep" + "/{p}".repeat(40)],
    requests: [
      ["/" + "x".repeat(10_000), "/{a}", ["x".repeat(10_000)]],
      ["/a/" + "y".repeat(10_000) + "/c", "/a/{b}/c", ["y".repeat(10_000)]],
      ["/deep" + "/v".repeat(40), "/deep" + "/{p}".repeat(40), Array(40).fill("v")],
      ["/" + "a/".repeat(2_000)],
      ["/" + "s/".repeat(1_999) + "s"],
      ["/deep" + "/v".repeat(2_000)],
      ["/".repeat(10_000)],
      ["/a/" + "y".repeat(10_000) + "/c/"],
    ],
  },
  {
    // Large enough for the compiled strategy to move subtrees (some nested) into helpers.
    name: "large subtrees, backtracking between them",
    routes: [
      ...many.slice(0, 150).flatMap((i) => [
        `/api/latest/r${i}/items/{id}`,
        `/api/{version}/r${i}/items/{id}`,
        `/api/{version}/r${i}`,
      ]),
      ...many.slice(0, 50).flatMap((j) => many.slice(0, 40).map((i) => `/n/{a}/x${j}/{b}/y${i}`)),
    ],
    requests: [
      ["/api/latest/r7/items/9", "/api/latest/r7/items/{id}", ["9"]],
      ["/api/latest/r7", "/api/{version}/r7", ["latest"]],
      ["/api/latest/r7/items/9/x"],
      ["/api/v2/r7/items/9", "/api/{version}/r7/items/{id}", ["v2", "9"]],
      ["/api/v2/r149", "/api/{version}/r149", ["v2"]],
      ["/api/v2/r150"],
      ["/api/latest/r7/items"],
      ["/n/a1/x3/b1/y5", "/n/{a}/x3/{b}/y5", ["a1", "b1"]],
      ["/n/a1/x49/b1/y39", "/n/{a}/x49/{b}/y39", ["a1", "b1"]],
      ["/n/a1/x3/b1/y40"],
      ["/n/a1/x50/b1/y0"],
      ["/n/a1/x3//y5"],
    ],
  },
  {
    // More siblings sharing a first character than a bucket holds: the trie looks them up by segment.
    name: "crowded siblings beside a param",
    routes: [...many.slice(0, 40).map((i) => `/w${i}/x`), "/{p}/y", "/{p}/x/z"],
    requests: [
      ["/w3/x", "/w3/x"],
      ["/w39/x", "/w39/x"],
      ["/w3/y", "/{p}/y", ["w3"]],
      ["/w3/x/z", "/{p}/x/z", ["w3"]],
      ["/w40/x"],
      ["/w40/x/z", "/{p}/x/z", ["w40"]],
      ["/w3"],
      ["/w3/"],
      ["//y"],
      ["/w/x"],
      ["/__proto__/x"],
      ["/__proto__/y", "/{p}/y", ["__proto__"]],
    ],
  },
  {
    name: "600 routes",
    routes: many.flatMap((i) => [`/r${i}/items/{id}`, `/r${i}/static`]),
    requests: many.flatMap((i): Request[] => [
      [`/r${i}/items/${i}`, `/r${i}/items/{id}`, [`${i}`]],
      [`/r${i}/static`, `/r${i}/static`, []],
      [`/r${i}/items`],
      [`/r${i + 300}/static`],
    ]),
  },
];

for (const [strategyName, strategy] of strategies) {
  for (const group of groups) {
    Deno.test(`${strategyName} matcher: ${group.name}`, () => {
      const matcher = strategy(definitions(group.routes));
      for (const [path, route, params = []] of group.requests) {
        const label = `${strategyName} ${JSON.stringify(path.slice(0, 60))}`;
        const found = matcher.match(path);
        if (route === undefined) {
          assert.equal(found, undefined, label);
        } else {
          assert.deepEqual(found, { value: route, params }, label);
        }
      }
    });
  }

  Deno.test(`${strategyName} matcher: a value of undefined is still a match`, () => {
    const matcher = strategy([
      { segments: [], value: undefined },
      { segments: parse("/{x}"), value: undefined },
    ]);
    assert.deepEqual(matcher.match("/"), { value: undefined, params: [] });
    assert.deepEqual(matcher.match("/a"), { value: undefined, params: ["a"] });
    assert.equal(matcher.match("/a/b"), undefined);
  });

  Deno.test(`${strategyName} matcher: matches are independent of each other`, () => {
    const matcher = strategy(definitions(["/a/{x}", "/a/b"]));
    const first = matcher.match("/a/1");
    const second = matcher.match("/a/2");
    assert.deepEqual(first?.params, ["1"]);
    assert.deepEqual(second?.params, ["2"]);
  });

  Deno.test(`${strategyName} matcher: invalid definitions throw`, () => {
    const bad: [string, RouteDefinition<number>[]][] = [
      ["empty static", [{ segments: [{ kind: "static", value: "" }], value: 1 }]],
      ["slash in static", [{ segments: [{ kind: "static", value: "a/b" }], value: 1 }]],
      ["duplicate static", [{ segments: parse("/a"), value: 1 }, {
        segments: parse("/a"),
        value: 2,
      }]],
      ["duplicate root", [{ segments: [], value: 1 }, { segments: [], value: 2 }]],
      [
        "duplicate shape, other param names",
        [{ segments: parse("/a/{x}"), value: 1 }, { segments: parse("/a/{y}"), value: 2 }],
      ],
    ];
    for (const [label, definitions] of bad) {
      assert.throws(() => strategy(definitions), TypeError, label);
    }
  });
}

// Property test: random route sets and paths against an obviously correct reference.

/** A route shape: a static segment is its text, a param is `null`. */
type Shape = readonly (string | null)[];

/** Short, overlapping names so that static/param collisions and backtracking are common. */
const names = ["a", "b", "ab", "ba"];
/** Names sharing their first character, enough to crowd one position's bucket. */
const crowded = Array.from({ length: 12 }, (_, i) => `n${i}`);
const values = ["a", "b", "ab", "x", "yz", "a%20"];

/** Straight from the rules: split, then static first and param second, recursively. */
function reference(shapes: readonly Shape[], path: string) {
  const segments = path === "/" ? [] : path.slice(1).split("/");
  const search = (
    candidates: readonly Shape[],
    i: number,
    params: readonly string[],
  ): { shape: Shape; params: readonly string[] } | undefined => {
    if (i === segments.length) {
      const shape = candidates.find((c) => c.length === i);
      return shape && { shape, params };
    }
    const segment = segments[i];
    const statics = candidates.filter((c) => c.length > i && c[i] === segment);
    const viaStatic = statics.length > 0 ? search(statics, i + 1, params) : undefined;
    if (viaStatic !== undefined || segment === "") return viaStatic;
    const dynamic = candidates.filter((c) => c.length > i && c[i] === null);
    return dynamic.length > 0 ? search(dynamic, i + 1, [...params, segment]) : undefined;
  };
  return search(shapes, 0, []);
}

/** Random route sets over `names`, and paths derived from them (or random ones). */
function scenarioOf(names: readonly string[], minRoutes: number, maxRoutes: number) {
  const shapeArb: fc.Arbitrary<Shape> = fc.array(
    fc.option(fc.constantFrom(...names), { nil: null, freq: 3 }),
    { maxLength: 4 },
  );
  const routesArb = fc.uniqueArray(shapeArb, {
    minLength: minRoutes,
    maxLength: maxRoutes,
    selector: (shape) => JSON.stringify(shape),
  });
  const mutationArb = fc.record({
    kind: fc.constantFrom("none", "none", "drop", "append", "replace", "trailing", "empty"),
    at: fc.nat(5),
    segment: fc.constantFrom(...names, ...values),
  });
  /** A path from a route (params filled in, then maybe mutated), or a random one. */
  const pathArb = (shapes: readonly Shape[]): fc.Arbitrary<string> => {
    const derived = fc.tuple(
      fc.constantFrom(...shapes),
      fc.array(fc.constantFrom(...values), { minLength: 4, maxLength: 4 }),
      mutationArb,
    ).map(([shape, fills, mutation]) => {
      const segments = shape.map((s, i) => s ?? fills[i]);
      const at = segments.length === 0 ? 0 : mutation.at % segments.length;
      if (mutation.kind === "drop") segments.splice(at, 1);
      if (mutation.kind === "append") segments.push(mutation.segment);
      if (mutation.kind === "replace" && segments.length > 0) segments[at] = mutation.segment;
      if (mutation.kind === "trailing") segments.push("");
      if (mutation.kind === "empty") segments.splice(at, 0, "");
      return "/" + segments.join("/");
    });
    const random = fc.array(fc.constantFrom(...names, ...values, ""), { maxLength: 5 })
      .map((segments) => "/" + segments.join("/"));
    return fc.oneof({ weight: 4, arbitrary: derived }, { weight: 1, arbitrary: random });
  };
  return routesArb.chain((shapes) =>
    fc.tuple(fc.constant(shapes), fc.array(pathArb(shapes), { minLength: 1, maxLength: 20 }))
  );
}

const scenarios = [
  ["", scenarioOf(names, 1, 14)],
  [" (crowded positions)", scenarioOf(crowded, 24, 40)],
] as const;

for (const [strategyName, strategy] of strategies) {
  for (const [kind, scenarioArb] of scenarios) {
    Deno.test(`${strategyName} matcher: agrees with the reference on random routes and paths${kind}`, () => {
      fc.assert(
        fc.property(scenarioArb, ([shapes, paths]) => {
          const matcher = strategy(shapes.map((shape, index) => ({
            segments: shape.map((s, i): PatternSegment =>
              s === null ? { kind: "param", name: `p${i}` } : { kind: "static", value: s }
            ),
            value: index,
          })));
          for (const path of paths) {
            const expected = reference(shapes, path);
            const found = matcher.match(path);
            assert.deepEqual(
              found && { shape: shapes[found.value], params: found.params },
              expected,
              path,
            );
          }
        }),
        { numRuns: 300 },
      );
    });
  }
}
