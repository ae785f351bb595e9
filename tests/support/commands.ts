// Debian programs a test needs (tmux, zsh, fish): installed with apt-get when
// missing, once per run; what could not be installed is reported, so the test
// can skip with a clear message instead of failing for the machine's sake.

let updated = false;

async function has(command: string): Promise<boolean> {
  const found = await new Deno.Command("sh", {
    args: ["-c", `command -v ${command}`],
    stdout: "null",
    stderr: "null",
  }).output();
  return found.success;
}

async function apt(args: string[]): Promise<boolean> {
  try {
    const result = await new Deno.Command("apt-get", {
      args,
      stdout: "null",
      stderr: "null",
      env: { DEBIAN_FRONTEND: "noninteractive" },
    }).output();
    return result.success;
  } catch {
    return false;
  }
}

/** The commands (command name to Debian package) still missing after trying to install them. */
export async function ensureCommands(wanted: Record<string, string>): Promise<string[]> {
  const missing = [];
  for (const command of Object.keys(wanted)) if (!await has(command)) missing.push(command);
  if (missing.length === 0) return [];
  const packages = missing.map((command) => wanted[command]);
  if (!await apt(["install", "-y", ...packages]) && !updated) {
    updated = true;
    if (await apt(["update"])) await apt(["install", "-y", ...packages]);
  }
  const still = [];
  for (const command of missing) if (!await has(command)) still.push(command);
  return still;
}
