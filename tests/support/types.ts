// Compile-time equality for type tests: `assertType<Equal<A, B>>(true)` fails to
// type-check unless A and B are the same type.

/** True when A and B are identical types. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** Fails to type-check unless given `true` for a `true` type. */
export function assertType<T extends true>(_proof: T): void {}
