// What the counting benches share: valgrind installed when missing,
// callgrind_control, a keep-alive load of raw requests, and what callgrind
// counted (the instructions of every thread's output file in a folder).

/** Installs valgrind (Debian package) when it is missing. */
export async function ensureValgrind(): Promise<void> {
  const found = await new Deno.Command("sh", { args: ["-c", "command -v valgrind"] }).output();
  if (found.success) return;
  for (const args of [["install", "-y", "valgrind"], ["update"], ["install", "-y", "valgrind"]]) {
    await new Deno.Command("apt-get", { args, stdout: "null", stderr: "null" }).output();
  }
}

/** `callgrind_control <args> <pid>`: instrumentation on, zero the counts, dump them. */
export async function callgrindControl(pid: number, ...args: string[]): Promise<void> {
  const done = await new Deno.Command("callgrind_control", {
    args: [...args, String(pid)],
    stdout: "null",
    stderr: "null",
  }).output();
  if (!done.success) throw new Error(`callgrind_control ${args.join(" ")} failed`);
}

/**
 * Sends `count` requests over `connections` keep-alive connections, each
 * written whole in one write (so the server always sees the body with the
 * head), and waits for every answer, which must be a 200.
 */
export async function keepAliveLoad(
  port: number,
  bytes: Uint8Array,
  count: number,
  connections = 8,
): Promise<void> {
  let left = count;
  const decoder = new TextDecoder();
  const worker = async () => {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    const buffer = new Uint8Array(64 * 1024);
    try {
      while (left-- > 0) {
        await connection.write(bytes);
        let received = "";
        for (;;) {
          const read = await connection.read(buffer);
          if (read === null) throw new Error("the server closed the connection");
          received += decoder.decode(buffer.subarray(0, read));
          const end = received.indexOf("\r\n\r\n");
          if (end === -1) continue;
          if (!received.startsWith("HTTP/1.1 200")) throw new Error(`not a 200:\n${received}`);
          const length = /content-length: *(\d+)/i.exec(received.slice(0, end));
          if (length === null) throw new Error(`no Content-Length:\n${received}`);
          if (received.length >= end + 4 + Number(length[1])) break;
        }
      }
    } finally {
      connection.close();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

/** The instructions callgrind wrote into `dir`, all threads together. */
export async function countedInstructions(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const text = await Deno.readTextFile(`${dir}/${entry.name}`);
    const summary = /^summary: (\d+)$/m.exec(text);
    if (summary !== null) total += Number(summary[1]);
  }
  return total;
}

/** valgrind's arguments to count `command` with callgrind into `dir`, instrumentation off at start. */
export function callgrindArgs(dir: string, command: readonly string[]): string[] {
  return ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${dir}/out`, ...command];
}

/**
 * A server's user-space instructions per request: `command` (which serves on
 * `port`, answering `probe` once up) runs under callgrind; `bytes` is sent
 * `warmUp` times, again once instrumented, then `requests` times counted.
 */
export async function countServed(
  command: readonly string[],
  port: number,
  probe: string,
  bytes: Uint8Array,
  requests: number,
  warmUp: number,
): Promise<number> {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command("valgrind", {
    args: callgrindArgs(dir, command),
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let tries = 0;; tries++) {
      try {
        await (await fetch(`http://127.0.0.1:${port}${probe}`)).body?.cancel();
        break;
      } catch {
        if (tries > 600) throw new Error(`${command.join(" ")} did not start under valgrind`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await keepAliveLoad(port, bytes, warmUp);
    // Turning instrumentation on drops the translated code: warm up again before counting.
    await callgrindControl(child.pid, "-i", "on");
    await keepAliveLoad(port, bytes, 2_000);
    await callgrindControl(child.pid, "-z");
    await keepAliveLoad(port, bytes, requests);
    await callgrindControl(child.pid, "-d");
    return await countedInstructions(dir) / requests;
  } finally {
    child.kill();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}
