/**
 * What a data source knows of its server between requests: the mapping epoch (a number that moves
 * whenever a command sent through it may have changed an index mapping, so caches of mappings
 * know when to read them again) and the product its answers named.
 *
 * @module
 */

import { mappingEpochOf } from "../wire/_mapping_epoch.ts";
import { executorOf } from "../wire/_executor.ts";
import { DataSource } from "./data_source.ts";
import type { Connection } from "./connection.ts";

/**
 * The mapping epoch of a data source (or of the data source a connection came from): it moves
 * on whenever a command sent through it may have changed what `GET /{index}/_mapping` answers —
 * creating or deleting an index, `PUT /{index}/_mapping`, aliases, rollovers, data streams,
 * open/close, clone/split/shrink — before the request and again when it settles. A cache of
 * mappings keeps the epoch it read them at and reads them again when it differs (LambdaTemplate
 * does). Changes made by other clients are not seen.
 *
 * @param source A DataSource or a Connection.
 * @returns The epoch (0 until a change was sent).
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { mappingEpoch } from "../internal.ts";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
 * await using conn = await ds.getConnection();
 * const before = mappingEpoch(ds);
 * await conn.createStatement().execute('PUT /notes {"mappings": {"properties": {"n": {"type": "long"}}}}');
 * assert.ok(mappingEpoch(ds) > before);
 * const after = mappingEpoch(conn);
 * await conn.createStatement().executeUpdate('PUT /notes/_doc/1 {"n": 1}');
 * assert.equal(mappingEpoch(ds), after, "document writes leave it alone");
 * ```
 */
export function mappingEpoch(source: DataSource | Connection): number {
  const transport = source instanceof DataSource ? source.transport : executorOf(source).transport;
  return mappingEpochOf(transport);
}

/**
 * The product the server named in the `X-Elastic-Product` header of the first answer through
 * this data source (`"Elasticsearch"`), or undefined before any answer or when it carried none —
 * OpenSearch never sends it, so after an answer undefined means "not Elasticsearch 7.14+".
 * LambdaTemplate reads it to pick a vector dialect without asking `GET /`, which Elasticsearch
 * builds without the root module (405) and roles without `monitor` (403) refuse.
 *
 * @param source A DataSource or a Connection.
 * @returns The header's value, or undefined.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { serverProduct } from "../internal.ts";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
 * assert.equal(serverProduct(ds), undefined, "nothing answered yet");
 * await using conn = await ds.getConnection();
 * await conn.createStatement().executeQuery("GET /_cluster/health");
 * assert.equal(serverProduct(conn), "Elasticsearch");
 * engine.close();
 * ```
 */
export function serverProduct(source: DataSource | Connection): string | undefined {
  const transport = source instanceof DataSource ? source.transport : executorOf(source).transport;
  return transport.product;
}
