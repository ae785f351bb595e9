// The flags of a command whose leaf has no input schema: its handler takes
// whatever named values it is given, as HTTP gives it a query's, so any
// `--name value` (or `--name=value`) that is not one of the command line's own
// flags is one of them: a string, `true` for a flag with no value, a list for
// a name given more than once.

import { setOwn } from "../tree/plain_data.ts";

/** The command line's own flags, and what is left for them. */
export interface FreeFlags {
  /** The arguments the command line's own flags are read from. */
  readonly rest: string[];
  /** The named values, own keys only. */
  readonly values: Record<string, unknown>;
}

/** Takes the free flags out of `args`, leaving the `known` ones (and everything after `--`). */
export function freeFlags(args: readonly string[], known: ReadonlySet<string>): FreeFlags {
  const rest: string[] = [];
  const values: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (!arg.startsWith("--") || arg.length === 2) {
      rest.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    if (known.has(name) || (name.startsWith("no-") && known.has(name.slice(3)))) {
      rest.push(arg);
      continue;
    }
    let value: string | true;
    if (equals !== -1) value = arg.slice(equals + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith("-")) value = args[++i];
    else value = true;
    add(values, name, value);
  }
  return { rest, values };
}

function add(values: Record<string, unknown>, name: string, value: string | true) {
  if (!Object.hasOwn(values, name)) setOwn(values, name, value);
  else {
    const earlier = values[name];
    setOwn(values, name, Array.isArray(earlier) ? [...earlier, value] : [earlier, value]);
  }
}
