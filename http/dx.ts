/**
 * Developer-experience helpers of the HTTP projection: `httpProjection` and
 * `crud`. They land with the HTTP work (issue 3).
 *
 * @module
 */
export {};
