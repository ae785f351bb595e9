// 2025-era MCP over Streamable HTTP, with sessions: each `initialize` gets
// one server instance that every later request of its session reaches, so a
// client's `notifications/cancelled` finds the call it cancels. Sessions are
// bounded: past the limit the least recently used is closed, and sessions
// idle past the timeout are closed when a new one starts.

import type {
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";

type Sdk = typeof import("@modelcontextprotocol/server");

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  lastUsed: number;
}

export interface SessionLimits {
  readonly maxSessions: number;
  readonly idleMs: number;
}

export interface LegacySessions {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export function legacySessions(
  loaded: Sdk,
  makeServer: () => Server,
  limits: SessionLimits,
): LegacySessions {
  const sessions = new Map<string, Session>();
  const end = async (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    await session?.transport.close().catch(() => {});
    await session?.server.close().catch(() => {});
  };
  const makeRoom = async () => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > limits.idleMs) await end(id);
    }
    // Map order is insertion order; a used session is moved to the end.
    while (sessions.size >= limits.maxSessions) await end(sessions.keys().next().value!);
  };
  return {
    async handle(request) {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const session = sessions.get(id);
        if (session === undefined) {
          await request.body?.cancel().catch(() => {});
          return Response.json(
            { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
            { status: 404 },
          );
        }
        session.lastUsed = Date.now();
        sessions.delete(id);
        sessions.set(id, session);
        return await session.transport.handleRequest(request);
      }
      await makeRoom();
      const server = makeServer();
      const transport: WebStandardStreamableHTTPServerTransport = new loaded
        .WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, { transport, server, lastUsed: Date.now() });
        },
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request);
      // Anything but an initialize starts no session: nothing to keep.
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
        await transport.close().catch(() => {});
        await server.close().catch(() => {});
      }
      return response;
    },
    async close() {
      for (const id of [...sessions.keys()]) await end(id);
    },
  };
}
