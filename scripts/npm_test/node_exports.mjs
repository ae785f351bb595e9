// Node: every export subpath of the built package imports and has the runtime
// exports the sources have; the application holds exactly one graphql.
import { test } from "node:test";
import { checkOneGraphQL, checkSubpath, expectedExports } from "./fixture.mjs";

const { name, exports } = expectedExports();

for (const [subpath, names] of Object.entries(exports)) {
  test(`node: import ${subpath === "." ? name : `${name}/${subpath.slice(2)}`}`, () =>
    checkSubpath(name, subpath, names));
}

test("node: one graphql, the application's, and the package's schema is its GraphQLSchema", () =>
  checkOneGraphQL());
