// One task running on this instance: its abort controller, the record as it
// changes, and the writes of it, in order. Changes are coalesced (a progress
// loop is one write per FLUSH_MS, not one per call); the lease is renewed at
// each write and every heartbeat. A write the store refuses means the record
// turned terminal elsewhere (cancelled from another instance, failed as
// lapsed): the handler's signal is aborted then too.

import { Cancelled, type Failure } from "../tree/failure.ts";
import { delay } from "../tree/deadline.ts";
import type { AskResult, FormSchema, LogLevel } from "../tree/interaction.ts";
import type { TaskFailure, TaskRecord, TaskStatus, TaskStore } from "./store.ts";

/** How long changes gather before they are written. */
const FLUSH_MS = 20;
/** Tries of the final write while the store is out of reach, a heartbeat apart. */
const FINAL_TRIES = 3;

/** The timings of a run. */
export interface RunOptions {
  readonly heartbeatMs: number;
  readonly maxLogs: number;
}

/** A task running here. */
export class Run {
  #record: TaskRecord;
  readonly #store: TaskStore;
  readonly #opts: RunOptions;
  readonly #controller: AbortController;
  #writing: Promise<unknown> = Promise.resolve();
  #flushing: ReturnType<typeof setTimeout> | undefined;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #finished = false;
  /** The questions waiting for an answer, by key, in the order asked. */
  readonly #asking = new Map<string, (answer: AskResult) => void>();
  #asked = 0;

  /** `controller` aborts the handler's signal, made before the run is (the guards see it). */
  constructor(
    record: TaskRecord,
    store: TaskStore,
    opts: RunOptions,
    controller: AbortController,
  ) {
    this.#controller = controller;
    this.#record = record;
    this.#store = store;
    this.#opts = opts;
    this.#heartbeat = setInterval(() => this.#flush(), opts.heartbeatMs);
  }

  /** The handler's signal: aborted by a cancel, or when the task ended elsewhere. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  log(level: LogLevel, message: string, data: unknown): void {
    const line = data === undefined
      ? { at: Date.now(), level, message }
      : { at: Date.now(), level, message, data: JSON.parse(JSON.stringify(data) ?? "null") };
    this.#change({ logs: [...this.#record.logs, line].slice(-this.#opts.maxLogs) });
  }

  progress(done: number, total: number | undefined, message: string | undefined): void {
    this.#change({
      progress: {
        done,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    });
  }

  /**
   * The handler's `ask`: `input_required` until an answer arrives, or the
   * task ends. Questions asked together wait together, each under its key.
   */
  ask = (
    message: string,
    schema: FormSchema,
    signal?: AbortSignal,
    own?: string,
  ): Promise<AskResult> => {
    const key = own ?? `ask-${++this.#asked}`;
    const answer = new Promise<AskResult>((resolve, reject) => {
      this.#asking.set(key, resolve);
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    this.#ask({ ...this.#record.questions, [key]: { message, schema } });
    return answer.finally(() => {
      this.#asking.delete(key);
      const { [key]: _answered, ...left } = this.#record.questions ?? {};
      this.#ask(left);
    });
  };

  answered(answer: AskResult, key?: string): void {
    const resolve = key === undefined ? this.#asking.values().next().value : this.#asking.get(key);
    resolve?.(answer);
  }

  /** The questions still waiting: `input_required` while any does, `working` once none. */
  #ask(questions: NonNullable<TaskRecord["questions"]>): void {
    const { question: _question, questions: _questions, ...rest } = this.#record;
    const first = Object.values(questions)[0];
    this.#record = first === undefined
      ? { ...rest, status: "working" }
      : { ...rest, status: "input_required", question: first, questions };
    this.#flush();
  }

  /** Ends the task: its last write, tried again while the store is out of reach. */
  finish(status: TaskStatus, change: Partial<TaskRecord>): void {
    if (this.#finished) return;
    this.#finished = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#flushing);
    const { question: _question, questions: _questions, ...rest } = this.#record;
    const last: TaskRecord = { ...rest, ...change, status, updatedAt: Date.now() };
    this.#record = last;
    const attempt = async (left: number): Promise<void> => {
      try {
        await this.#store.write(last);
      } catch {
        if (left <= 1) return;
        await delay(this.#opts.heartbeatMs);
        await attempt(left - 1);
      }
    };
    this.#writing = this.#writing.then(() => attempt(FINAL_TRIES));
  }

  /** Resolves once every write begun has settled. */
  written(): Promise<unknown> {
    return this.#writing;
  }

  #change(change: Partial<TaskRecord>): void {
    if (this.#finished) return;
    this.#record = { ...this.#record, ...change };
    this.#flushing ??= setTimeout(() => this.#flush(), FLUSH_MS);
  }

  #flush(): void {
    clearTimeout(this.#flushing);
    this.#flushing = undefined;
    if (this.#finished) return;
    const now = Date.now();
    const record = { ...this.#record, updatedAt: now, lease: now + 3 * this.#opts.heartbeatMs };
    this.#record = record;
    this.#writing = this.#writing.then(() => this.#store.write(record)).then(
      (written) => {
        if (!written) this.abort(new Cancelled());
      },
      // Out of reach: the next heartbeat writes again, before the lease lapses.
      () => {},
    );
  }
}

/** A failure as a record keeps it: the thrown value left out, the headers as pairs. */
export function stored(failure: Failure): TaskFailure {
  const { error: _error, headers, ...kept } = failure;
  return headers === undefined ? kept : { ...kept, headers: [...headers] };
}
