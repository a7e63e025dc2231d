// Charts of aggregations, drawn as SVG text by this small module (no library, no network): a
// `terms` or `range` aggregation as bars, a `histogram` or `date_histogram` as a line, a bucket
// aggregation under another one as grouped bars, and the scores of a `knn` search as bars.
// The request body says which type each aggregation is; the response gives the buckets.

import { escapeXml, isObject, type Json } from "./_json.ts";

/**
 * One chart: categories along the bottom, one or more series of values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ChartSpec } from "./charts.ts";
 *
 * const spec: ChartSpec = { name: "n", type: "terms", kind: "bar", labels: ["a"], series: [{ name: "doc_count", values: [1] }] };
 * assert.equal(spec.series[0]!.values.length, spec.labels.length);
 * ```
 */
export interface ChartSpec {
  /** The aggregation's name (or `knn`). */
  readonly name: string;
  /** The aggregation's type (`terms`, `histogram`, …, or `knn`). */
  readonly type: string;
  /** Bars, or a line for histograms. */
  readonly kind: "bar" | "line";
  /** The categories (bucket keys). */
  readonly labels: readonly string[];
  /** The values per series, one per label (0 where a group lacks the key). */
  readonly series: readonly { readonly name: string; readonly values: readonly number[] }[];
}

const BUCKET_TYPES = ["terms", "histogram", "date_histogram", "range", "date_range"];

/** The bucket aggregations of a request's `aggs`: name → type and sub-aggregations. */
function bucketAggs(aggs: unknown): { name: string; type: string; sub: unknown }[] {
  if (!isObject(aggs)) return [];
  const out: { name: string; type: string; sub: unknown }[] = [];
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def)) continue;
    const type = BUCKET_TYPES.find((t) => t in def);
    if (type) out.push({ name, type, sub: def.aggs ?? def.aggregations });
  }
  return out;
}

function bucketsOf(agg: unknown): Json[] {
  if (!isObject(agg)) return [];
  const b = agg.buckets;
  if (Array.isArray(b)) return b.filter(isObject);
  if (isObject(b)) return Object.entries(b).map(([key, v]) => ({ key, ...(v as Json) }));
  return [];
}

function labelOf(bucket: Json): string {
  const k = bucket.key_as_string ?? bucket.key;
  return typeof k === "string" ? k : JSON.stringify(k ?? null);
}

function count(bucket: Json): number {
  return typeof bucket.doc_count === "number" ? bucket.doc_count : Number(bucket.doc_count ?? 0);
}

/**
 * The charts a search answer calls for: one per bucket aggregation at the top of the request
 * (grouped bars when its first sub-aggregation is a bucket one too), and the hits' scores when
 * the request has a `knn` section.
 *
 * @param body The request body (parsed), or undefined.
 * @param response The response body (parsed).
 * @returns The charts, in request order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartsFor } from "./charts.ts";
 *
 * const [chart] = chartsFor(
 *   { aggs: { by: { terms: { field: "country" } } } },
 *   { aggregations: { by: { buckets: [{ key: "FR", doc_count: 3 }, { key: "DE", doc_count: 2 }] } } },
 * );
 * assert.deepEqual(chart, {
 *   name: "by", type: "terms", kind: "bar", labels: ["FR", "DE"],
 *   series: [{ name: "doc_count", values: [3, 2] }],
 * });
 * ```
 */
export function chartsFor(body: unknown, response: unknown): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const req = isObject(body) ? body : {};
  const answers = isObject(response) && isObject(response.aggregations)
    ? response.aggregations
    : {};
  for (const { name, type, sub } of bucketAggs(req.aggs ?? req.aggregations)) {
    const buckets = bucketsOf(answers[name]);
    const kind = type.endsWith("histogram") ? "line" : "bar";
    const labels = buckets.map(labelOf);
    const inner = bucketAggs(sub)[0];
    if (inner === undefined) {
      charts.push({
        name,
        type,
        kind,
        labels,
        series: [{ name: "doc_count", values: buckets.map(count) }],
      });
      continue;
    }
    // Grouped bars: a group per outer bucket, a bar per inner key.
    const keys: string[] = [];
    const byGroup = buckets.map((b) => {
      const m = new Map<string, number>();
      for (const ib of bucketsOf(b[inner.name])) {
        const key = labelOf(ib);
        if (!keys.includes(key)) keys.push(key);
        m.set(key, count(ib));
      }
      return m;
    });
    charts.push({
      name,
      type: `${type} › ${inner.type}`,
      kind: "bar",
      labels,
      series: keys.map((key) => ({ name: key, values: byGroup.map((m) => m.get(key) ?? 0) })),
    });
  }
  if ("knn" in req && isObject(response) && isObject(response.hits)) {
    const hits = Array.isArray(response.hits.hits) ? response.hits.hits.filter(isObject) : [];
    charts.push({
      name: "knn",
      type: "knn",
      kind: "bar",
      labels: hits.map((h) => String(h._id)),
      series: [{ name: "_score", values: hits.map((h) => Number(h._score ?? 0)) }],
    });
  }
  return charts;
}

const COLORS = ["#3b6fd4", "#e0812b", "#3a9d5d", "#c4453c", "#8a5cc2", "#7a7a7a"];
const W = 480;
const H = 240;
const PAD = { left: 44, right: 12, top: 24, bottom: 56 };
const LEGEND = 96;

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(3);
}

/**
 * Draws a chart as an SVG element's text: bars carry `class="bar"` and `data-label`, points of a
 * line `class="point"`; every category has a `class="label"` text under the axis.
 *
 * @param spec The chart.
 * @returns The `<svg>` text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderChart } from "./charts.ts";
 *
 * const svg = renderChart({
 *   name: "by", type: "terms", kind: "bar", labels: ["a<b", "c"],
 *   series: [{ name: "doc_count", values: [2, 1] }],
 * });
 * assert.equal(svg.match(/class="bar"/g)?.length, 2);
 * assert.ok(svg.includes(">a&#60;b</text>"));
 * ```
 */
export function renderChart(spec: ChartSpec): string {
  const values = spec.series.flatMap((s) => s.values);
  const max = Math.max(0, ...values.filter(Number.isFinite));
  const top = max === 0 ? 1 : max;
  const groups = spec.series.length;
  const right = PAD.right + (groups > 1 ? LEGEND : 0);
  const plotW = W - PAD.left - right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = Math.max(1, spec.labels.length);
  const slot = plotW / n;
  const y = (v: number) => PAD.top + plotH - (Number.isFinite(v) ? v : 0) / top * plotH;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-agg="${escapeXml(spec.name)}" ` +
      `data-kind="${spec.kind}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">`,
    `<title>${escapeXml(`${spec.name} (${spec.type})`)}</title>`,
    `<text class="title" x="${PAD.left}" y="16">${escapeXml(`${spec.name} · ${spec.type}`)}</text>`,
  );
  // Axis and three grid lines with their values.
  for (const f of [0, 0.5, 1]) {
    const gy = y(top * f).toFixed(1);
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - right}" y1="${gy}" y2="${gy}"/>`,
      `<text class="tick" x="${
        PAD.left - 4
      }" y="${gy}" text-anchor="end" dominant-baseline="middle">${fmt(top * f)}</text>`,
    );
  }
  spec.labels.forEach((label, i) => {
    const cx = PAD.left + slot * (i + 0.5);
    if (spec.kind === "bar") {
      const bw = Math.max(1, (slot * 0.8) / groups);
      spec.series.forEach((s, g) => {
        const v = s.values[i] ?? 0;
        const x = PAD.left + slot * i + slot * 0.1 + bw * g;
        const yy = y(v);
        parts.push(
          `<rect class="bar" data-label="${escapeXml(label)}" data-series="${escapeXml(s.name)}" ` +
            `data-value="${v}" x="${x.toFixed(1)}" y="${yy.toFixed(1)}" width="${bw.toFixed(1)}" ` +
            `height="${(PAD.top + plotH - yy).toFixed(1)}" fill="${COLORS[g % COLORS.length]}">` +
            `<title>${escapeXml(`${label} · ${s.name}: ${fmt(v)}`)}</title></rect>`,
        );
      });
    }
    const shown = label.length > 12 ? label.slice(0, 11) + "…" : label;
    parts.push(
      `<text class="label" x="${cx.toFixed(1)}" y="${H - PAD.bottom + 14}" text-anchor="end" ` +
        `transform="rotate(-35 ${cx.toFixed(1)} ${H - PAD.bottom + 14})">${
          escapeXml(shown)
        }</text>`,
    );
  });
  if (spec.kind === "line") {
    spec.series.forEach((s, g) => {
      const pts = spec.labels.map((_, i) =>
        `${(PAD.left + slot * (i + 0.5)).toFixed(1)},${y(s.values[i] ?? 0).toFixed(1)}`
      );
      const color = COLORS[g % COLORS.length];
      parts.push(
        `<polyline class="line" fill="none" stroke="${color}" stroke-width="2" points="${
          pts.join(" ")
        }"/>`,
      );
      pts.forEach((p, i) => {
        const [px, py] = p.split(",");
        const label = spec.labels[i]!;
        parts.push(
          `<circle class="point" data-label="${escapeXml(label)}" data-value="${
            s.values[i] ?? 0
          }" ` +
            `cx="${px}" cy="${py}" r="3" fill="${color}"><title>${
              escapeXml(`${label}: ${fmt(s.values[i] ?? 0)}`)
            }</title></circle>`,
        );
      });
    });
  }
  if (groups > 1) {
    spec.series.forEach((s, g) => {
      const lx = W - LEGEND;
      const ly = PAD.top + g * 14;
      parts.push(
        `<rect class="key" x="${lx}" y="${ly - 8}" width="10" height="10" fill="${
          COLORS[g % COLORS.length]
        }"/>`,
        `<text class="legend" x="${lx + 14}" y="${ly}">${escapeXml(s.name)}</text>`,
      );
    });
  }
  parts.push("</svg>");
  return parts.join("");
}
