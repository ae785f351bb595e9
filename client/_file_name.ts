// The name a response gives its bytes (`Content-Disposition`, RFC 6266), so
// that a `File` a handler returns reaches the client as a `File` of that name.

/** The file name of a `Content-Disposition` header: `filename*` (RFC 8187) over `filename`. */
export function fileNameOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  const extended = /;\s*filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(header);
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // Malformed encoding: fall back to the plain name, if any.
    }
  }
  const quoted = /;\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted !== null) return quoted[1].replace(/\\(.)/g, "$1");
  const token = /;\s*filename\s*=\s*([^;\s"]+)/i.exec(header);
  return token?.[1];
}

/** The response's bytes: a `File` when it names them, else a `Blob`. */
export async function bytesOfResponse(response: Response): Promise<Blob> {
  const name = fileNameOf(response.headers.get("content-disposition"));
  const blob = await response.blob();
  return name === undefined || name === "" ? blob : new File([blob], name, { type: blob.type });
}
