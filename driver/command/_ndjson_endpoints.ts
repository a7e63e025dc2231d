// The endpoints whose request body is NDJSON: the URL templates whose request media type is
// application/x-ndjson in the Elasticsearch specification. tools/console_agreement.ts checks
// this table against the specification (`deno task console:agreement`). Internal.

/** URL templates of the NDJSON endpoints; a `{name}` segment stands for any one segment. */
export const NDJSON_ENDPOINTS: readonly string[] = [
  "/_bulk",
  "/_fleet/_fleet_msearch",
  "/_ml/anomaly_detectors/{job_id}/_data",
  "/_monitoring/bulk",
  "/_msearch",
  "/_msearch/template",
  "/_text_structure/find_structure",
  "/{index}/_bulk",
  "/{index}/_fleet/_fleet_msearch",
  "/{index}/_msearch",
  "/{index}/_msearch/template",
];

/** The templates as segment lists, by their last segment (always fixed text). */
const BY_LAST = new Map<string, (string | undefined)[][]>();
for (const template of NDJSON_ENDPOINTS) {
  const segments = template.slice(1).split("/").map((s) => s.startsWith("{") ? undefined : s);
  const last = segments.at(-1)!;
  BY_LAST.set(last, [...BY_LAST.get(last) ?? [], segments]);
}

/**
 * True when a path (its segments, `undefined` for a segment holding a `{?}` slot) is an NDJSON
 * endpoint. A slot fills a template's `{name}` segment, never a fixed one.
 */
export function isNdjsonPath(segments: readonly (string | undefined)[]): boolean {
  const last = segments.at(-1);
  const templates = last === undefined ? undefined : BY_LAST.get(last);
  if (templates === undefined) return false;
  return templates.some((t) =>
    t.length === segments.length && t.every((s, k) => s === undefined || s === segments[k])
  );
}
