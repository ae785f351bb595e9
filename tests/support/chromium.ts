// Headless Chromium (Debian's package, installed when missing) driven over
// the DevTools protocol on a WebSocket: open a page, evaluate in it, see the
// requests it makes. For the tests that must run in a real browser.
import { ensureCommands } from "./commands.ts";

/** A page: evaluate an expression (awaiting a promise), wait for one, screenshot, and every URL it requested. */
export interface Page {
  evaluate(expression: string): Promise<unknown>;
  /** Evaluates `expression` until it is truthy (or gives up after `tries` tenths of a second, 200 by default), and returns it. */
  waitFor(expression: string, what: string, tries?: number): Promise<unknown>;
  /** Writes a PNG of the page. */
  screenshot(path: string): Promise<void>;
  /** Clicks the first element `selector` finds, as a person would (mouse events at its centre). */
  click(selector: string): Promise<void>;
  readonly requested: string[];
}

/** Why Chromium is unavailable, or undefined when it is there (installed if need be). */
export async function chromiumMissing(): Promise<string | undefined> {
  const missing = await ensureCommands({ chromium: "chromium" });
  return missing.length === 0
    ? undefined
    : "chromium could not be installed (apt-get install chromium)";
}

/** Starts Chromium, opens `url`, runs `body` with the page, and closes everything. */
export async function withPage(url: string, body: (page: Page) => Promise<void>): Promise<void> {
  const profile = await Deno.makeTempDir({ prefix: "ramify-chromium-" });
  const browser = new Deno.Command("chromium", {
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-extensions",
      "--window-size=1280,900",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const port = await devtoolsPort(profile);
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find((t) => t.type === "page")!;
    const session = await connect(target.webSocketDebuggerUrl);
    try {
      const requested: string[] = [];
      session.on("Network.requestWillBeSent", (params) => {
        requested.push((params as { request: { url: string } }).request.url);
      });
      await session.send("Network.enable");
      await session.send("Page.enable");
      await session.send("Page.navigate", { url });
      const page: Page = {
        requested,
        async waitFor(expression, what, tries = 200) {
          for (let attempt = 0; attempt < tries; attempt++) {
            const value = await page.evaluate(expression);
            if (value) return value;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          throw new Error(`the page never showed ${what}`);
        },
        async click(selector) {
          const at = await page.evaluate(`(() => {
            const element = document.querySelector(${JSON.stringify(selector)});
            if (element === null) return null;
            element.scrollIntoView({ block: "center" });
            const box = element.getBoundingClientRect();
            return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
          })()`) as { x: number; y: number } | null;
          if (at === null) throw new Error(`nothing to click at ${selector}`);
          for (const type of ["mousePressed", "mouseReleased"]) {
            await session.send("Input.dispatchMouseEvent", {
              type,
              x: at.x,
              y: at.y,
              button: "left",
              clickCount: 1,
            });
          }
        },
        async screenshot(path) {
          const { data } = await session.send("Page.captureScreenshot", { format: "png" }) as {
            data: string;
          };
          await Deno.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
        },
        async evaluate(expression) {
          const reply = await session.send("Runtime.evaluate", {
            expression,
            awaitPromise: true,
            returnByValue: true,
          }) as {
            result: { value?: unknown };
            exceptionDetails?: { text: string; exception?: { description?: string } };
          };
          if (reply.exceptionDetails !== undefined) {
            throw new Error(
              reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text,
            );
          }
          return reply.result.value;
        },
      };
      await body(page);
    } finally {
      session.close();
    }
  } finally {
    browser.kill();
    await browser.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

async function devtoolsPort(profile: string): Promise<number> {
  // A guard against a browser that never starts, not a bound on a loaded machine's start (60 s).
  for (let tries = 0; tries < 1_200; tries++) {
    try {
      const text = await Deno.readTextFile(`${profile}/DevToolsActivePort`);
      const port = Number(text.split("\n")[0]);
      if (port > 0) return port;
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("chromium did not open its DevTools port");
}

interface Session {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: unknown) => void): void;
  close(): void;
}

async function connect(url: string): Promise<Session> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, ((params: unknown) => void)[]>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id !== undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    } else {
      for (const listener of listeners.get(message.method) ?? []) listener(message.params);
    }
  };
  return {
    send(method, params = {}) {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    close: () => socket.close(),
  };
}
