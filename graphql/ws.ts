/**
 * GraphQL subscriptions over WebSocket. The implementation lands with the
 * subscriptions work (issue 7); this subpath is reserved so that the package's
 * export map is complete from the first release.
 *
 * @module
 */
export {};
