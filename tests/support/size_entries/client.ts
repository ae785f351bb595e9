/**
 * What a browser app imports of the HTTP client: the manifest-driven client.
 *
 * @module
 */
export { createClientFromManifest } from "@ramify/api/client";
