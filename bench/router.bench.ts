/**
 * Router benchmark: our three path matchers against peer routers, on one route
 * table shaped like the GitHub REST API and one fixed list of requests (static
 * hits, dynamic hits, deep dynamic hits, misses). Every case resolves the
 * method too and walks the whole request list per iteration.
 *
 * Run with `deno task bench` or `deno bench --allow-read --allow-env bench/router.bench.ts`.
 *
 * @module
 */

import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import FindMyWay from "find-my-way";
import { Memoirist } from "memoirist";
import { addRoute, createRouter, findRoute } from "rou3";
import { compiledCharMatcher } from "../http/server/matchers/compiled/matcher.ts";
import { radixMatcher } from "../http/server/matchers/radix/matcher.ts";
import { trieMatcher } from "../http/server/matchers/trie/matcher.ts";
import type {
  MatcherStrategy,
  PathMatcher,
  PatternSegment,
} from "../http/server/matchers/types.ts";
import { requests, type Route, routes } from "./github_routes.ts";

const methods = requests.map(([method]) => method);
const paths = requests.map(([, path]) => path);
/**
 * A server gets each pathname as a new string (Deno's `URL` slices it out of
 * the href), whose hash V8 has not computed yet. Slicing these once per lookup
 * reproduces that; reusing `paths` instead lets every `Map` or object lookup on
 * the whole path hit V8's cached string hash.
 */
const padded = paths.map((path) => "#" + path);

// Our matchers: one definition per path, its value a method table.

type MethodTable = Record<string, number>;

function segmentsOf(path: string): PatternSegment[] {
  if (path === "/") return [];
  return path.slice(1).split("/").map((part) =>
    part.startsWith("{")
      ? { kind: "param", name: part.slice(1, -1) }
      : { kind: "static", value: part }
  );
}

function ours(strategy: MatcherStrategy, routes: readonly Route[]): PathMatcher<MethodTable> {
  const byPath = new Map<string, MethodTable>();
  for (const { id, method, path } of routes) {
    const methodTable = byPath.get(path) ?? {};
    methodTable[method] = id;
    byPath.set(path, methodTable);
  }
  return strategy([...byPath].map(([path, value]) => ({ segments: segmentsOf(path), value })));
}

/** Peers write params as `:name`. */
const colon = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function honoRegExpRouter(routes: readonly Route[]): RegExpRouter<number> {
  const router = new RegExpRouter<number>();
  for (const { id, method, path } of routes) router.add(method, colon(path), id);
  return router;
}

/**
 * Hono's RegExpRouter rejects (UnsupportedPathError) a param next to a static
 * sibling for the same method, which the GitHub shape is full of. This keeps,
 * in order, every route it accepts on top of the routes kept so far.
 */
function regExpRouterSubset(routes: readonly Route[]): Route[] {
  const kept: Route[] = [];
  for (const route of routes) {
    try {
      honoRegExpRouter([...kept, route]);
      kept.push(route);
    } catch {
      // Rejected: left out of the subset.
    }
  }
  return kept;
}

/** One router under test: `find` answers one request (route id or -1), `run` the whole list. */
interface Contender {
  readonly name: string;
  find(method: string, path: string): number;
  run(): number;
}

/**
 * The contenders for one route table. Each `run` is its own loop, written out,
 * so that no call site inside a loop is shared between routers (only between
 * the groups, which reuse these closures with other instances of the same router).
 */
function contenders(
  routes: readonly Route[],
  fresh: boolean,
  withRegExpRouter: boolean,
): Contender[] {
  const trie = ours(trieMatcher, routes);
  const radix = ours(radixMatcher, routes);
  const compiled = ours(compiledCharMatcher, routes);
  const honoTrie = new TrieRouter<number>();
  const rou3 = createRouter<number>();
  const findMyWay = FindMyWay();
  const memoirist = new Memoirist<number>();
  for (const { id, method, path } of routes) {
    honoTrie.add(method, colon(path), id);
    addRoute(rou3, method, colon(path), id);
    findMyWay.on(method as "GET", colon(path), () => {}, { id });
    memoirist.add(method, colon(path), id);
  }
  const list: Contender[] = [
    {
      name: "trie (ours, default)",
      find: (method, path) => trie.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = trie.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "radix (ours)",
      find: (method, path) => radix.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = radix.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "compiled (ours, new Function)",
      find: (method, path) => compiled.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = compiled.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "hono TrieRouter",
      find: (method, path) => honoTrie.match(method, path)[0][0]?.[0] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const [handlers] = honoTrie.match(methods[i], path);
          if (handlers.length > 0) found += handlers.length;
        }
        return found;
      },
    },
    {
      name: "rou3",
      find: (method, path) => findRoute(rou3, method, path)?.data ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = findRoute(rou3, methods[i], path);
          if (match !== undefined) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
    {
      name: "find-my-way",
      find: (method, path) =>
        (findMyWay.find(method as "GET", path)?.store as { id: number } | undefined)?.id ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = findMyWay.find(methods[i] as "GET", path);
          if (match !== null) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
    {
      name: "memoirist",
      find: (method, path) => memoirist.find(method, path)?.store ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = memoirist.find(methods[i], path);
          if (match !== null) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
  ];
  if (withRegExpRouter) {
    const honoRegExp = honoRegExpRouter(routes);
    list.push({
      name: "hono RegExpRouter",
      find: (method, path) => honoRegExp.match(method, path)[0][0]?.[0] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const [handlers, stash] = honoRegExp.match(methods[i], path);
          if (handlers.length > 0) found += (stash?.length ?? 0) + 1;
        }
        return found;
      },
    });
  }
  return list;
}

/** Keeps results observable so that no lookup is optimised away. */
let sink = 0;

/**
 * Checks that every contender finds the same route (or none) for every request,
 * or the numbers would mean nothing, then registers one bench per contender.
 */
function register(group: string, list: readonly Contender[]): void {
  const [reference] = list;
  const expected = requests.map(([method, path]) => reference.find(method, path));
  if (!expected.includes(-1) || expected.every((id) => id === -1)) {
    throw new Error(`${group}: the request list must mix hits and misses`);
  }
  for (const contender of list) {
    requests.forEach(([method, path], i) => {
      const found = contender.find(method, path);
      if (found !== expected[i]) {
        throw new Error(
          `${group}: ${contender.name} disagrees on ${method} ${path}: ${found}, ${reference.name} found ${
            expected[i]
          }`,
        );
      }
    });
  }
  for (const contender of list) {
    Deno.bench({
      name: contender.name,
      group,
      baseline: contender === reference,
      fn: () => {
        sink += contender.run();
      },
    });
  }
}

const subset = regExpRouterSubset(routes);

register(`${routes.length} routes, fresh path strings`, contenders(routes, true, false));
register(`${routes.length} routes, reused path strings`, contenders(routes, false, false));
register(
  `${subset.length} routes RegExpRouter accepts, fresh path strings`,
  contenders(subset, true, true),
);
