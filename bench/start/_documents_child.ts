// The OpenAPI document and the GraphQL SDL of a fresh tree of `leaves`
// operations, each timed after one warm-up on a tree of the same size, in ms.
import { toOpenApi } from "@ramify/api/http";
import { toSDL } from "@ramify/api/graphql";
import { ramifyTree } from "./_ramify_tree.ts";

const leaves = Number(Deno.args[0]);
await toOpenApi(ramifyTree(leaves));
toSDL(ramifyTree(leaves));
const forOpenApi = ramifyTree(leaves);
const forSdl = ramifyTree(leaves);
let start = performance.now();
await toOpenApi(forOpenApi);
const openapi = performance.now() - start;
start = performance.now();
toSDL(forSdl);
const sdl = performance.now() - start;
console.log(JSON.stringify({ openapi, sdl }));
