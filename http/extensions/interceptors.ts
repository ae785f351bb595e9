/**
 * The `interceptors` client extension of the typed HTTP client. Its implementation lands
 * with the typed-client work (issue 5); this subpath is reserved so that the
 * package's export map is complete from the first release.
 *
 * @module
 */
export {};
