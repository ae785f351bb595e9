// A command line program for oauth_surfaces_test.ts: the shape of its tree (remote mode calls the
// server, so no handler here runs), started as a person starts one, its token from RAMIFY_TOKEN.
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { mainCli } from "@ramify/api/cli";

const remote = () => {
  throw new Error("called in process");
};
const tree = api({
  me: op(remote, { tags: { readOnly: true }, input: z.object({}) }),
  books: api({ add: op(remote, { input: z.object({ title: z.string() }) }) }),
});

await mainCli(tree, { name: "books" });
