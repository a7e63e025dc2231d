/// <reference lib="dom" />
// (The DOM's types reach every file of a type-check program, and clash with Deno's in places, so
// `deno task check` checks this folder as a program of its own.)
// The playground page: the editor, the arguments panel, results (table, raw JSON, charts, the
// access styles), NDJSON loads and history. It runs the library itself — the driver talks to the
// engine over `fetch` on the page's own origin — and web standards only. Bundled by
// `tools/build_playground.ts`; `server_node.ts` serves it.

import {
  BulkWriter,
  CommandSyntaxError,
  DataSource,
  type ResultSet,
  type StatementBase,
} from "../../driver/mod.ts";
import {
  type Arguments,
  prepare,
  type Prepared,
  type Segment,
  segmentAt,
  splitCommands,
} from "../page/commands.ts";
import { chartsFor, renderChart } from "../page/charts.ts";
import { escapeXml } from "../page/_json.ts";
import { stylesFor } from "../page/styles.ts";

const SAMPLE = `# The sample data: "Load sample cities" above (1,000 GeoNames cities, CC BY 4.0).
GET /cities/_search
{"query": {"match": {"name": "san"}}, "size": 5}

GET /cities/_search
{"size": 0, "aggs": {"countries": {"terms": {"field": "country", "size": 8}}}}

GET /cities/_search
{"size": 0, "aggs": {"latitude": {"histogram": {"field": "lat", "interval": 10}}}}

GET /cities/_search
{"query": {"term": {"country": #{country}}}, "size": 3}

GET /cities/_search
{"query": {"range": {"lat": {"gte": ?}}}, "size": 3}
`;
const HISTORY_KEY = "searchvisitor.playground.history";
const EDITOR_KEY = "searchvisitor.playground.editor";
const HISTORY_SIZE = 50;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const editor = $<HTMLTextAreaElement>("editor");
const gutter = $<HTMLDivElement>("gutter");
const results = $<HTMLDivElement>("results");
const positionalInput = $<HTMLInputElement>("args-positional");
const namedInput = $<HTMLInputElement>("args-named");
const progress = $<HTMLProgressElement>("progress");
const status = $<HTMLSpanElement>("status");
const historySelect = $<HTMLSelectElement>("history");

const ds = new DataSource({ nodes: [location.origin], indexRefresh: true });

function store(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

// --- the editor's line numbers -------------------------------------------------------------

let errorLine = 0;
function drawGutter(): void {
  const n = editor.value.split("\n").length;
  let html = "";
  for (let i = 1; i <= n; i++) {
    html += `<div${i === errorLine ? ' class="error-line"' : ""}>${i}</div>`;
  }
  gutter.innerHTML = html;
  gutter.scrollTop = editor.scrollTop;
}
editor.addEventListener("input", () => {
  errorLine = 0;
  drawGutter();
  store()?.setItem(EDITOR_KEY, editor.value);
});
editor.addEventListener("scroll", () => (gutter.scrollTop = editor.scrollTop));

function cursorLine(): number {
  return editor.value.slice(0, editor.selectionStart).split("\n").length;
}

// --- arguments ---------------------------------------------------------------------------------

function readArguments(): Arguments {
  const parse = (input: HTMLInputElement, fallback: string): unknown => {
    const text = input.value.trim() || fallback;
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new Error(`${input.dataset.name}: not JSON (${(e as Error).message})`);
    }
  };
  const positional = parse(positionalInput, "[]");
  const named = parse(namedInput, "{}");
  if (!Array.isArray(positional)) throw new Error("positional arguments: give a JSON array");
  if (typeof named !== "object" || named === null || Array.isArray(named)) {
    throw new Error("named arguments: give a JSON object");
  }
  return { positional, named: named as Record<string, unknown> };
}

// --- history -----------------------------------------------------------------------------------

function history(): string[] {
  try {
    const list = JSON.parse(store()?.getItem(HISTORY_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((t) => typeof t === "string") : [];
  } catch {
    return [];
  }
}
function remember(text: string): void {
  const list = [text, ...history().filter((t) => t !== text)].slice(0, HISTORY_SIZE);
  store()?.setItem(HISTORY_KEY, JSON.stringify(list));
  drawHistory();
}
function drawHistory(): void {
  const list = history();
  historySelect.innerHTML = `<option value="">history (${list.length})</option>` +
    list.map((t, i) => `<option value="${i}">${escapeXml(t.split("\n")[0]!.slice(0, 60))}</option>`)
      .join("");
}
historySelect.addEventListener("change", () => {
  const text = history()[Number(historySelect.value)];
  historySelect.value = "";
  if (text === undefined) return;
  const at = editor.value.length;
  editor.value = editor.value.replace(/\n*$/, "\n\n") + text + "\n";
  editor.selectionStart = editor.selectionEnd = Math.min(editor.value.length, at + 2);
  drawGutter();
  editor.focus();
});

// --- results -----------------------------------------------------------------------------------

function cell(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return `<td>${escapeXml(text)}</td>`;
}

function tableOf(rs: ResultSet, scores: boolean): string {
  const columns = rs.getColumns();
  const rows = rs.toArray();
  const raw = rs.raw as { hits?: { hits?: { _score?: number | null }[] } } | undefined;
  const hitScores = raw?.hits?.hits?.map((h) => h._score ?? null) ?? [];
  const head = (scores ? ["_SCORE", ...columns] : columns).map((c) => `<th>${escapeXml(c)}</th>`);
  const body = rows.map((row, i) =>
    `<tr>${scores ? cell(hitScores[i] ?? null) : ""}${
      columns.map((c) => cell(row[c])).join("")
    }</tr>`
  );
  const total = rs.total === null
    ? ""
    : `, total <span class="total">${rs.total.value}${
      rs.total.relation === "gte" ? "+" : ""
    }</span>`;
  const took = rs.took === null ? "" : `, took <span class="took">${rs.took}</span> ms`;
  const summary = `<div class="summary">(<span class="rows">${rows.length}</span> row${
    rows.length === 1 ? "" : "s"
  }${total}${took})</div>`;
  const table = columns.length > 0 && rows.length > 0
    ? `<table class="rows"><thead><tr>${head.join("")}</tr></thead><tbody>${
      body.join("")
    }</tbody></table>`
    : "";
  return table + summary;
}

function requestBody(p: Prepared): unknown {
  const body = p.parsed.commands[0]?.body;
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.join("null"));
  } catch {
    return undefined; // NDJSON bodies have no charts
  }
}

function block(title: string): HTMLElement {
  const el = document.createElement("section");
  el.className = "result";
  el.innerHTML = `<header><code>${escapeXml(title)}</code></header><div class="content"></div>`;
  results.prepend(el);
  return el;
}

function tabs(el: HTMLElement, panes: [string, string][]): void {
  const content = el.querySelector<HTMLElement>(".content")!;
  const bar = document.createElement("nav");
  bar.className = "tabs";
  panes.forEach(([name], i) => {
    const b = document.createElement("button");
    b.textContent = name;
    b.className = "tab" + (i === 0 ? " active" : "");
    b.dataset.tab = name.toLowerCase();
    b.addEventListener("click", () => {
      bar.querySelectorAll("button").forEach((x) => x.classList.toggle("active", x === b));
      content.querySelectorAll<HTMLElement>(".pane").forEach((p, k) => (p.hidden = k !== i));
    });
    bar.append(b);
  });
  el.insertBefore(bar, content);
  content.innerHTML = panes.map(([name, html], i) =>
    `<div class="pane pane-${name.toLowerCase()}"${i === 0 ? "" : " hidden"}>${html}</div>`
  ).join("");
}

function showResults(
  el: HTMLElement,
  stmt: StatementBase,
  p: Prepared,
  source: string,
  args: Arguments,
): void {
  const tables: string[] = [];
  const raws: unknown[] = [];
  const charts: string[] = [];
  const body = requestBody(p);
  const knn = typeof body === "object" && body !== null && "knn" in body;
  for (;;) {
    const rs = stmt.getResultSet();
    if (rs !== null) {
      tables.push(tableOf(rs, knn));
      raws.push(rs.raw);
      for (const spec of chartsFor(body, rs.raw)) charts.push(renderChart(spec));
    } else {
      const count = stmt.getUpdateCount();
      if (count < 0) break;
      tables.push(`<div class="summary">OK, <span class="affected">${count}</span> affected</div>`);
      raws.push({ updated: count });
    }
    stmt.getMoreResults();
  }
  const table = `<div class="answer"><div class="tables">${tables.join("")}</div>${
    charts.length > 0 ? `<div class="charts">${charts.join("")}</div>` : ""
  }</div>`;
  const json = `<pre class="raw">${
    escapeXml(JSON.stringify(raws.length === 1 ? raws[0] : raws, null, 2))
  }</pre>`;
  const s = stylesFor(source, p, args);
  const styles = `<h4>JdbcTemplate</h4><pre class="style-jdbc">${escapeXml(s.jdbc)}</pre>` +
    `<h4>LambdaTemplate</h4>${
      s.lambda === undefined
        ? `<p class="style-lambda none">no lambda form: the LambdaTemplate builds searches whose query is a match, term, range, match_all or a bool of them (with size and from)</p>`
        : `<pre class="style-lambda">${escapeXml(s.lambda)}</pre>`
    }<h4>Mapper XML</h4><pre class="style-xml">${escapeXml(s.xml)}</pre>`;
  tabs(el, [["Table", table], ["JSON", json], ["Styles", styles]]);
}

function showError(el: HTMLElement, error: unknown): void {
  const content = el.querySelector<HTMLElement>(".content")!;
  el.classList.add("failed");
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  content.innerHTML = `<pre class="error">${escapeXml(`${name}: ${message}`)}</pre>`;
  if (error instanceof CommandSyntaxError) {
    errorLine = error.line;
    drawGutter();
  }
}

// --- running -----------------------------------------------------------------------------------

let offsets = new Map<Segment, number>();
function positionalOffsets(segments: readonly Segment[], args: Arguments): void {
  offsets = new Map();
  let used = 0;
  for (const s of segments) {
    offsets.set(s, used);
    try {
      used += prepare(s, args, used).parsed.placeholderCount;
    } catch {
      // a command that does not parse consumes nothing; running it shows its error
    }
  }
}

async function runSegment(segment: Segment, args: Arguments): Promise<boolean> {
  const title = segment.text.split("\n").find((l) => !/^\s*(#|\/\*\+)/.test(l)) ?? segment.text;
  const el = block(title.trim());
  let prepared: Prepared;
  try {
    prepared = prepare(segment, args, offsets.get(segment) ?? 0);
  } catch (error) {
    showError(el, error);
    return false;
  }
  try {
    await using conn = await ds.getConnection();
    const stmt = conn.createStatement();
    await stmt.execute(prepared.text, prepared.args);
    showResults(el, stmt, prepared, segment.text, args);
    return true;
  } catch (error) {
    showError(el, error);
    return false;
  }
}

async function run(all: boolean): Promise<void> {
  errorLine = 0;
  drawGutter();
  let args: Arguments;
  try {
    args = readArguments();
  } catch (error) {
    showError(block("arguments"), error);
    return;
  }
  // Comment lines (`# …`) are blanked so they keep their line numbers.
  const text = editor.value.split("\n").map((l) => (/^\s*#(?!\{)/.test(l) ? "" : l)).join("\n");
  const segments = splitCommands(text);
  positionalOffsets(segments, args);
  const chosen = all
    ? segments
    : [segmentAt(segments, cursorLine())].filter((s) => s !== undefined);
  if (chosen.length === 0) {
    showError(
      block("editor"),
      new Error("no command: a command starts with GET, POST, PUT, DELETE or HEAD"),
    );
    return;
  }
  status.textContent = "running…";
  for (const s of chosen) {
    remember(s.text);
    if (!(await runSegment(s, args))) break;
  }
  status.textContent = "";
}

$("run").addEventListener("click", () => run(false));
$("run-all").addEventListener("click", () => run(true));
editor.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    run(e.shiftKey);
  }
});
$("clear").addEventListener("click", () => (results.innerHTML = ""));

// --- loading NDJSON ----------------------------------------------------------------------------

const CITIES_MAPPING = `PUT /cities
{"mappings": {"properties": {
  "name": {"type": "text", "fields": {"keyword": {"type": "keyword"}}},
  "country": {"type": "keyword"}, "admin1": {"type": "keyword"},
  "lat": {"type": "double"}, "lng": {"type": "double"}}}}`;

async function load(text: string, index: string, what: string): Promise<void> {
  const el = block(`load ${what} into ${index}`);
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  progress.max = lines.length;
  progress.value = 0;
  progress.hidden = false;
  status.textContent = `loading ${what}…`;
  try {
    const docs: unknown[] = lines.map((line, i) => {
      try {
        return JSON.parse(line);
      } catch (e) {
        throw new Error(`${what}: line ${i + 1} is not JSON (${(e as Error).message})`);
      }
    });
    await using conn = await ds.getConnection();
    const writer = new BulkWriter<unknown>(conn, {
      index,
      flushDocs: 200,
      concurrency: 2,
      refresh: "true",
      operation: (doc) => ({ doc }),
      onProgress: (s) => {
        progress.value = s.successful + s.failed;
        status.textContent = `loaded ${s.successful} / ${lines.length}`;
      },
    });
    const result = await writer.write(docs);
    const failed = result.failed > 0
      ? `, <span class="failed-count">${result.failed}</span> failed (first: ${
        escapeXml(String(result.failures[0]?.error.reason))
      })`
      : "";
    el.querySelector(".content")!.innerHTML =
      `<div class="summary">loaded <span class="loaded">${result.successful}</span> documents into <code>${
        escapeXml(index)
      }</code>${failed}</div>`;
  } catch (error) {
    showError(el, error);
  } finally {
    status.textContent = "";
  }
}

$("load-file").addEventListener("change", async (e) => {
  const input = e.target as HTMLInputElement;
  const file = input.files?.[0];
  if (!file) return;
  const index = $<HTMLInputElement>("load-index").value.trim() || "data";
  await load(await file.text(), index, file.name);
  input.value = "";
});

$("sample").addEventListener("click", async () => {
  const el = block("PUT /cities (mapping)");
  try {
    await using conn = await ds.getConnection();
    const stmt = conn.createStatement();
    await stmt.execute("DELETE /cities?ignore_unavailable=true");
    await stmt.execute(CITIES_MAPPING);
    el.querySelector(".content")!.innerHTML =
      `<div class="summary">index <code>cities</code> created</div>`;
  } catch (error) {
    showError(el, error);
    return;
  }
  const res = await fetch("/_playground/cities.ndjson");
  await load(await res.text(), "cities", "sample cities");
});

// --- start -------------------------------------------------------------------------------------

editor.value = store()?.getItem(EDITOR_KEY) ?? SAMPLE;
if (!positionalInput.value) positionalInput.value = "[60]";
if (!namedInput.value) namedInput.value = '{"country": "FR"}';
drawGutter();
drawHistory();
document.body.dataset.ready = "true";
