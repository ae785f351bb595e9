// What the command line got wrong (exit 2), and the nearest names to offer
// for a misspelt command or flag.

import { editDistance } from "../tree/options.ts";

/** A mistake in the command line itself: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The candidate closest to `word`, when it is close enough to be what was meant. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3))
    ? best
    : undefined;
}

/** "did you mean" text, or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>, prefix = ""): string {
  const guess = nearest(word, candidates);
  return guess === undefined ? "" : `; did you mean ${prefix}${guess}?`;
}
