// Content codings for contrib/fetch_node: gzip, deflate and br bodies are decoded on the way to
// the reader with node:zlib, as fetch does; the reader's backpressure pauses the decoder too.

import {
  type BrotliDecompress,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  type Gunzip,
  type Inflate,
} from "node:zlib";
import type { BodySink } from "./_body_sink.ts";

/** Decodes a body between the socket and its sink. */
export interface Decoder {
  write(bytes: Uint8Array): void;
  /** The encoded body is complete. */
  end(): void;
  /** The exchange failed: the sink fails with `reason`. */
  fail(reason: unknown): void;
  pause(): void;
  resume(): void;
}

/**
 * A decoder for `encoding` feeding `sink`, or undefined for a coding that is passed through
 * (`identity`, or one it does not know).
 */
export function decoderFor(encoding: string, sink: BodySink): Decoder | undefined {
  const coding = encoding.trim().toLowerCase();
  let stream: Gunzip | Inflate | BrotliDecompress;
  // Lenient like browsers: a truncated stream at the end is taken as it is.
  const flush = { finishFlush: 2 /* Z_SYNC_FLUSH */ };
  if (coding === "gzip" || coding === "x-gzip") stream = createGunzip(flush);
  else if (coding === "deflate") stream = createInflate(flush);
  else if (coding === "br") stream = createBrotliDecompress();
  else return undefined;
  stream.on("data", (chunk: Uint8Array) => {
    sink.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
  stream.on("end", () => sink.end());
  stream.on("error", (error) => sink.fail(error));
  return {
    write: (bytes) => void stream.write(bytes),
    end: () => void stream.end(),
    fail: (reason) => {
      stream.destroy();
      sink.fail(reason);
    },
    pause: () => void stream.pause(),
    resume: () => void stream.resume(),
  };
}
