// The resources tree over stdio, for the subscription test: `poke` changes
// book b1, so that the test can make a change in this process.
import { api, op } from "@ramify/api/tree";
import { serveMcpStdio } from "@ramify/api/tools";
import { changed, context, tree } from "./resources_tree.ts";

await serveMcpStdio(
  api({
    ...tree.children,
    poke: op(() => {
      changed("b1");
      return "poked";
    }, { tags: { destructive: false } }),
  }, { fallback: tree.fallback }),
  { context, warnMissingHints: false, onError: (error) => console.error("crash:", error) },
);
