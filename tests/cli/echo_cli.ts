// A command line whose one leaf echoes its text, for the tests that run it as a
// process and feed it standard input.
import { api, op } from "@ramify/api/tree";
import { mainCli } from "@ramify/api/cli";
import { z } from "zod";

export const tree = api({
  echo: op(({ text }) => ({ length: text.length, text }), {
    input: z.object({ text: z.string() }),
    tags: { readOnly: true },
  }),
});

if (import.meta.main) await mainCli(tree, { name: "echo" });
