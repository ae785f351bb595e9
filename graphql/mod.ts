/**
 * The GraphQL projection. Its implementation lands with the GraphQL work
 * (issue 6); this subpath is reserved so that the package's export map is
 * complete from the first release.
 *
 * @module
 */
export {};
