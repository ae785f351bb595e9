// The OpenAPI document and the GraphQL SDL of a fresh tree of `leaves`
// operations, each timed after one warm-up on a tree of the same size, in ms:
// wall time, and the process's CPU time (all its threads, the collector's
// too), which a busy machine disturbs less.
import process from "node:process";
import { toOpenApi } from "@ramify/api/http";
import { toSDL } from "@ramify/api/graphql";
import { ramifyTree } from "./_ramify_tree.ts";

const leaves = Number(Deno.args[0]);
await toOpenApi(ramifyTree(leaves));
toSDL(ramifyTree(leaves));
const forOpenApi = ramifyTree(leaves);
const forSdl = ramifyTree(leaves);
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let start = performance.now();
let startCpu = cpu();
await toOpenApi(forOpenApi);
const openapi = performance.now() - start;
const openapiCpu = cpu() - startCpu;
start = performance.now();
startCpu = cpu();
toSDL(forSdl);
const sdl = performance.now() - start;
const sdlCpu = cpu() - startCpu;
console.log(JSON.stringify({ openapi, sdl, openapiCpu, sdlCpu }));
