// Loading a mapper file by URL: the runtime's `fetch` (or an injected one), or a caller's loader
// (for example one reading the file system on Node, whose fetch has no file: URLs).

import { redact } from "../driver/internal.ts";
import { MapperLoadError } from "./errors.ts";
import { parseMapperFile } from "./mapper_file.ts";
import type { MapperFile } from "./types.ts";

/** Options of {@linkcode loadMapperFile}. */
export interface LoadMapperOptions {
  /** The fetch to use (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Reads the file's text instead of fetching it. */
  loader?: (url: URL) => Promise<string>;
  /** The base a relative source is resolved against (default: `globalThis.location`, if any). */
  base?: string | URL;
  /** The largest file accepted, in characters (default 16 MiB). */
  maxLength?: number;
}

/**
 * Loads and reads a mapper file from a URL (`https:`, `file:` where the runtime's fetch reads
 * files, or anything a `loader` understands). A relative string is resolved against
 * `options.base`. Failing to get the text is a {@linkcode MapperLoadError}; problems in the text are
 * the errors of {@linkcode parseMapperFile}, naming the URL.
 *
 * @param source The URL (or a string to resolve to one).
 * @param options The fetch or loader to use.
 * @returns The read mapper file.
 *
 * @example
 * ```ts
 * import { loadMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const files: Record<string, string> = {
 *   "mem:/users.xml": '<mapper namespace="users"><select id="all">POST /users/_search</select></mapper>',
 * };
 * const file = await loadMapperFile("mem:/users.xml", { loader: (url) => Promise.resolve(files[url.href] ?? "") });
 * assert.equal(file.namespace, "users");
 * assert.equal(file.file, "mem:/users.xml");
 * ```
 */
export async function loadMapperFile(
  source: string | URL,
  options: LoadMapperOptions = {},
): Promise<MapperFile> {
  const url = toUrl(source, options.base);
  const name = redact(url.href);
  const max = options.maxLength ?? 16 * 1024 * 1024;
  let text: string;
  try {
    if (options.loader) text = await options.loader(url);
    else {
      const response = await (options.fetch ?? fetch)(url);
      if (!response.ok) {
        await response.body?.cancel();
        throw new MapperLoadError(
          `cannot load the mapper file ${name}: HTTP ${response.status}`,
          name,
        );
      }
      text = await readCapped(response, max, () => {
        throw new MapperLoadError(`the mapper file ${name} is larger than ${max} characters`, name);
      });
    }
  } catch (e) {
    if (e instanceof MapperLoadError) throw e;
    const hint = url.protocol === "file:" && !options.loader
      ? '; this runtime\'s fetch may not read file: URLs — pass a loader, e.g. (url) => readFile(url, "utf8")'
      : "";
    throw new MapperLoadError(`cannot load the mapper file ${name}${hint}`, name, e);
  }
  if (typeof text !== "string") {
    throw new MapperLoadError(`the loader gave no text for ${name}`, name);
  }
  if (text.length > max) {
    throw new MapperLoadError(`the mapper file ${name} is larger than ${max} characters`, name);
  }
  return parseMapperFile(text, { file: name });
}

function toUrl(source: string | URL, base: string | URL | undefined): URL {
  if (source instanceof URL) return source;
  const fallback = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(source, base ?? fallback);
  } catch (e) {
    throw new MapperLoadError(
      `"${redact(source)}" is not a URL; pass new URL("${
        redact(source)
      }", import.meta.url) or options.base`,
      redact(source),
      e,
    );
  }
}

// Reads a body as text, stopping (and cancelling the stream) once it passes `max` characters, so
// a server cannot make the reader hold more than that.
async function readCapped(response: Response, max: number, tooLarge: () => never): Promise<string> {
  if (Number(response.headers.get("content-length") ?? 0) > max * 4) {
    await response.body?.cancel();
    tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parts: string[] = [];
  let length = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) return parts.join("");
    length += value.length;
    if (length > max) {
      await reader.cancel();
      tooLarge();
    }
    parts.push(value);
  }
}
