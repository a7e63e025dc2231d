// JdbcTemplate.stream: every hit of a search as rows or entities, through the driver's HitStream
// (point in time + search_after, or scroll), on a connection held for the whole iteration.

import type { Connection, StreamOptions } from "../driver/mod.ts";
import type { EntityClass } from "./entity.ts";
import type { BoundTemplate } from "./named_binding.ts";
import { mapResultSet } from "./row_mapping.ts";
import { readHits } from "./result_reading.ts";
import type { Hit, RowMap } from "./types.ts";

/** A connection for the length of a stream, and how to give it back. */
export interface Lease {
  readonly conn: Connection;
  release(): Promise<void>;
}

/** What a stream yields for each hit. */
export interface StreamedAs<T> {
  /** An entity class, or undefined for row maps. */
  type: EntityClass<T> | undefined;
  /** Each row or entity inside a `Hit` with its metadata. */
  hits?: boolean;
}

/**
 * Yields every hit of a bound search as a row map, or as an entity of `type`; the connection is
 * released (and the point in time or scroll closed) however the iteration ends.
 *
 * @param lease Gets the connection when iteration starts.
 * @param bound The bound search command.
 * @param options Page size, keep-alive, mode and signal.
 * @param read What to yield: row maps, entities of a type, or either inside hits.
 * @returns An async generator of rows, entities or hits.
 */
export async function* streamRows<T>(
  lease: () => Promise<Lease>,
  bound: BoundTemplate,
  options: StreamOptions,
  read: StreamedAs<T>,
): AsyncGenerator<T | RowMap | Hit<T | RowMap>, void, undefined> {
  const { type, hits } = read;
  const { conn, release } = await lease();
  try {
    const stream = conn.stream(bound.text, bound.args, options);
    for await (const rs of stream.pages()) {
      if (hits) yield* readHits(rs, type, bound.text);
      else if (type === undefined) yield* rs;
      else yield* mapResultSet(rs, type, bound.text);
    }
  } finally {
    await release();
  }
}
