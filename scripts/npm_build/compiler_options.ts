// The compiler settings the npm package is built with and its consumers are
// checked against (the build, the cross-runtime proof, the type-check bench).

/** What the package is compiled, and its consumers checked, against. */
export const BASE_COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM", "DOM.Iterable"],
  // No ambient @types (and no Deno types): the code must stand on the web platform.
  types: [],
  strict: true,
} as const;
