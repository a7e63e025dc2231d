/**
 * OpenTelemetry spans for searchvisitor, opt-in and without a dependency: pass your tracer (from
 * `@opentelemetry/api`, or anything with the same `startSpan`) and give the returned listener to
 * the data source. Each attempt of each request becomes one client span with the
 * database-client conventions: `db.system` (`elasticsearch` or `opensearch`), `db.operation`
 * (the endpoint as Elasticsearch's clients name it: `search`, `index`, `bulk`, `cat.indices`, …), `server.address`, `server.port`, `http.request.method`,
 * `url.full` (redacted), `db.elasticsearch.path_parts.index`, `http.response.status_code`, body sizes, `http.request.resend_count` on
 * retries, and `error.type` with an error status on failure. Nothing secret is in them: the
 * events they are built from never hold a header, a body or a credential.
 *
 * @example
 * ```ts
 * import { otelListener, type OtelTracer } from "@searchvisitor/searchvisitor/contrib/otel";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * // In an application: `const tracer = trace.getTracer("my-app")` from @opentelemetry/api.
 * const names: string[] = [];
 * const tracer: OtelTracer = {
 *   startSpan: (name, options) => {
 *     names.push(`${name} ${options?.attributes?.["db.system"]}`);
 *     return { setAttributes() {}, setStatus() {}, end() {} };
 *   },
 * };
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://localhost:9200"], fetch: engine.fetch, onEvent: otelListener(tracer) });
 * await using conn = await ds.getConnection();
 * await conn.createStatement().executeQuery("GET /_cat/indices");
 * assert.deepEqual(names, ["cat.indices elasticsearch"]);
 * engine.close();
 * ```
 *
 * @module
 */

import type { TransportEvent, TransportEventListener } from "../driver/mod.ts";

/** The attribute values OpenTelemetry accepts. */
export type OtelAttributes = Record<string, string | number | boolean | undefined>;

/** The part of an OpenTelemetry `Span` the adapter uses. */
export interface OtelSpan {
  /** Sets attributes. */
  setAttributes(attributes: OtelAttributes): unknown;
  /** Sets the status: code 2 is ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(endTime?: number): void;
}

/** The part of an OpenTelemetry `Tracer` the adapter uses. */
export interface OtelTracer {
  /** Starts a span; `kind` 2 is CLIENT. */
  startSpan(name: string, options?: { kind?: number; attributes?: OtelAttributes }): OtelSpan;
}

/** Options of {@linkcode otelListener}. */
export interface OtelOptions {
  /** `db.system`: `elasticsearch` (default) or `opensearch`. */
  system?: "elasticsearch" | "opensearch";
  /** Another listener that receives every event too (a logger, metrics). */
  next?: TransportEventListener;
}

const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/**
 * Turns transport events into OpenTelemetry client spans, one per attempt.
 *
 * @param tracer The tracer.
 * @param options The `db.system` and a listener to chain.
 * @returns The listener to pass as `onEvent`.
 */
export function otelListener(
  tracer: OtelTracer,
  options: OtelOptions = {},
): TransportEventListener {
  const system = options.system ?? "elasticsearch";
  const open = new Map<string, OtelSpan>();
  return (event: TransportEvent) => {
    try {
      if (event.type === "request-start") {
        const url = new URL(event.node);
        const operation = event.operation;
        const index = new URL(event.url).pathname.split("/")[1];
        const span = tracer.startSpan(operation, {
          kind: SPAN_KIND_CLIENT,
          attributes: {
            "db.system": system,
            "db.operation": operation,
            "db.operation.name": operation,
            "server.address": url.hostname,
            "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
            "http.request.method": event.method,
            "url.full": event.url,
            ...(index && !index.startsWith("_")
              ? { "db.elasticsearch.path_parts.index": decodeURIComponent(index) }
              : {}),
            "http.request.body.size": event.requestBytes,
            ...(event.attempt > 1 ? { "http.request.resend_count": event.attempt - 1 } : {}),
          },
        });
        open.set(`${event.requestId}/${event.attempt}`, span);
      } else if (event.type === "request-end") {
        const key = `${event.requestId}/${event.attempt}`;
        const span = open.get(key);
        open.delete(key);
        if (span) {
          span.setAttributes({
            "http.response.status_code": event.status,
            "http.response.body.size": event.responseBytes,
          });
          const failed = event.status === undefined || event.status >= 400;
          if (failed) {
            const type = event.status === undefined
              ? (event.error ?? "Error").split(":")[0]
              : String(event.status);
            span.setAttributes({ "error.type": type });
            span.setStatus({ code: STATUS_ERROR, message: event.error ?? `HTTP ${event.status}` });
          }
          span.end();
        }
      }
    } finally {
      options.next?.(event);
    }
  };
}
