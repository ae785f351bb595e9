// The media type of a file given on the command line, from its extension, so
// that a `--cover cover.png` reaches the leaf as `image/png` (a schema with
// `.mime()` checks it) and a server sees what it was sent. Common types only;
// anything else is `application/octet-stream`, which says nothing false.

import { OCTET_STREAM } from "../tree/bytes.ts";

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  txt: "text/plain",
  json: "application/json",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  zip: "application/zip",
};

/** `cover.PNG` is `image/png`; no extension, or an unknown one, is `application/octet-stream`. */
export function mediaTypeOf(name: string): string {
  const dot = name.lastIndexOf(".");
  const extension = dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : OCTET_STREAM;
}
