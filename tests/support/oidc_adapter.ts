// oidc-provider's storage for one test provider: a Map, so that each provider keeps its own
// tokens (its built-in memory adapter is shared by the whole process, and warns on every start
// that it is for development only). Only what client credentials, introspection and revocation
// use is kept: no interactive flow runs here, so nothing is looked up by uid or user code.

interface Entry {
  readonly payload: Record<string, unknown>;
  /** Epoch milliseconds past which the entry is gone. */
  readonly until: number;
}

/** An adapter class for oidc-provider's `adapter` option, over a store of its own. */
export function memoryAdapter() {
  const store = new Map<string, Entry>();
  return class MemoryAdapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    #key(id: string): string {
      return `${this.#model}:${id}`;
    }

    upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const until = expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000;
      store.set(this.#key(id), { payload, until });
      return Promise.resolve();
    }

    find(id: string): Promise<Record<string, unknown> | undefined> {
      const key = this.#key(id);
      const entry = store.get(key);
      if (entry !== undefined && entry.until <= Date.now()) store.delete(key);
      return Promise.resolve(
        entry !== undefined && entry.until > Date.now() ? entry.payload : undefined,
      );
    }

    findByUid(): Promise<undefined> {
      return Promise.resolve(undefined);
    }

    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined);
    }

    consume(id: string): Promise<void> {
      const entry = store.get(this.#key(id));
      if (entry !== undefined) entry.payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }

    destroy(id: string): Promise<void> {
      store.delete(this.#key(id));
      return Promise.resolve();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) {
        if (entry.payload.grantId === grantId) store.delete(key);
      }
      return Promise.resolve();
    }
  };
}
