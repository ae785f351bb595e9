// Command-line tools from npm that a test runs (the MCP conformance suite,
// the MCP Inspector), with the Node 22 they need from the `node` npm package
// (it ships the binary): installed once into a folder under the temporary
// directory that later runs share, and found there again when they run. What
// could not be installed is `undefined`, so the test is ignored with the
// reason printed, never passed green.

const TMP = Deno.env.get("TMPDIR") ?? "/tmp";

/** An installed tool: the Node binary to run it with, the script of each of its bins, its folder. */
export interface NpmTool {
  readonly node: string;
  readonly bin: (name: string) => string;
  /** `node_modules` of the folder it was installed in. */
  readonly modules: string;
}

async function works(node: string, script: string): Promise<boolean> {
  try {
    const version = await new Deno.Command(node, { args: ["--version"], stdout: "piped" }).output();
    const major = Number(/^v(\d+)\./.exec(new TextDecoder().decode(version.stdout))?.[1]);
    return version.success && major >= 22 && (await Deno.stat(script)).isFile;
  } catch {
    return false;
  }
}

/**
 * The packages (exact versions) installed with Node 22 in `<tmp>/<folder>`,
 * or `undefined` when npm cannot install them; `probe` is a bin that must be
 * there.
 */
export async function npmTool(
  folder: string,
  packages: readonly string[],
  probe: string,
): Promise<NpmTool | undefined> {
  const dir = `${TMP}/${folder}`;
  const tool = {
    node: `${dir}/node_modules/.bin/node`,
    bin: (name: string) => `${dir}/node_modules/.bin/${name}`,
    modules: `${dir}/node_modules`,
  };
  if (await works(tool.node, tool.bin(probe))) return tool;
  try {
    await Deno.mkdir(dir, { recursive: true });
    const result = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--prefix", dir, "node@22", ...packages],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!result.success) console.warn(new TextDecoder().decode(result.stderr));
  } catch (error) {
    console.warn(`npm is not available (${error})`);
  }
  return await works(tool.node, tool.bin(probe)) ? tool : undefined;
}
