// A task's id: 144 random bits as 24 characters of base64url, safe in a URL,
// a GraphQL ID and a command line. It never begins with `-`: the command line
// would read `cancel -x…` as a flag, not the id (one id in 64 did).

/** A fresh task id. */
export function taskId(): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    const id = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
    if (!id.startsWith("-")) return id;
  }
}
