// The playground in a real browser: Debian's Chromium, headless, driven by playwright-core (a
// test-time tool from npm; no browser download — it drives /usr/bin/chromium). Builds the page,
// starts the playground on a free loopback port, and checks what a person does: type a command
// and run it (rows and total), a syntax error's caret, a chart's bars and labels, grouped bars,
// a knn search's scores, the access styles, an NDJSON load with its progress. It writes the
// screenshots of docs/img/. Run by .ci/run as its own step:
//
//   deno run -A tests/playground_browser.ts        (CHROMIUM=/path overrides the browser)

import assert from "node:assert/strict";
import { chromium, type Page } from "npm:playwright-core@1.49.1";
import { parseScript } from "../driver/internal.ts";
import { startPlayground } from "../playground/mod.ts";
import { buildPlayground } from "../tools/build_playground.ts";

// The callbacks handed to page.evaluate and waitForFunction run in the page; the few DOM names
// they use are declared here, in this module only (the DOM's own types would reach every file of
// `deno task check`'s program and clash with Deno's).
interface PageElement {
  value: string | number;
  focus(): void;
  setSelectionRange(start: number, end: number): void;
  scrollLeft: number;
}
declare const document: {
  getElementById(id: string): PageElement;
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): { length: number };
};

const executablePath = Deno.env.get("CHROMIUM") ?? "/usr/bin/chromium";
const IMG = new URL("../docs/img/", import.meta.url);
const cities: { name: string; country: string; lat: number }[] = Deno.readTextFileSync(
  new URL("../playground/static/cities.ndjson", import.meta.url),
).trim().split("\n").map((l) => JSON.parse(l));

let passed = 0;
async function step(name: string, body: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  await body();
  passed++;
  console.log(`ok ${passed} - ${name} (${Math.round(performance.now() - t0)} ms)`);
}

async function setEditor(page: Page, text: string, cursorLine = 1): Promise<void> {
  await page.fill("#editor", text);
  await page.evaluate((line) => {
    const editor = document.getElementById("editor");
    const lines = String(editor.value).split("\n");
    const at = lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
    editor.focus();
    editor.setSelectionRange(at, at);
    editor.scrollLeft = 0;
  }, cursorLine);
}

/** Runs the command at the cursor and returns the newest result block. */
async function runAtCursor(page: Page) {
  const before = await page.locator("#results > section").count();
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll("#results > section .content *").length > 0 &&
      document.querySelectorAll("#results > section").length > n,
    before,
  );
  const block = page.locator("#results > section").first();
  await block.locator(".summary, pre.error").first().waitFor();
  return block;
}

await buildPlayground();
const playground = await startPlayground({ port: 0 });
const userDataDir = await Deno.makeTempDir({ prefix: "playground-chromium-" });
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 1400, height: 860 },
});
const problems: string[] = [];
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // The page works with no network: every request it makes goes to its own origin.
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(playground.origin + "/")) return route.continue();
    problems.push(`request outside the origin: ${url}`);
    return route.abort();
  });
  await page.goto(playground.url);
  await page.waitForSelector("body[data-ready=true]");

  await step("the sample cities load with one click", async () => {
    await page.click("#sample");
    const loaded = page.locator("#results .loaded");
    await loaded.waitFor();
    assert.equal(await loaded.textContent(), String(cities.length));
  });

  await step("a typed command runs: its rows and total", async () => {
    await page.fill("#editor", "");
    await page.focus("#editor");
    await page.keyboard.type(
      'GET /cities/_search\n{"query": {"term": {"country": "FR"}}, "size": 3}',
    );
    await page.keyboard.press("ArrowUp"); // the cursor inside the command
    const block = await runAtCursor(page);
    const french = cities.filter((c) => c.country === "FR").length;
    assert.ok(french > 3);
    assert.equal(await block.locator("table.rows tbody tr").count(), 3);
    assert.equal(await block.locator(".total").textContent(), String(french));
    assert.deepEqual(await block.locator("table.rows thead th").allTextContents(), ["_ID", "_DOC"]);
    for (const doc of await block.locator("table.rows tbody td:nth-child(2)").allTextContents()) {
      assert.equal(JSON.parse(doc).country, "FR");
    }
    // The raw JSON is one click away.
    await block.locator("button[data-tab=json]").click();
    const raw = JSON.parse((await block.locator("pre.raw").textContent())!);
    assert.equal(raw.hits.total.value, french);
  });

  await step("the styles tab shows JdbcTemplate, LambdaTemplate and mapper XML", async () => {
    const block = page.locator("#results > section").first();
    await block.locator("button[data-tab=styles]").click();
    assert.match(
      (await block.locator(".style-jdbc").textContent())!,
      /jdbc\.queryForList\(`GET \/cities\/_search/,
    );
    assert.match(
      (await block.locator(".style-lambda").textContent())!,
      /lambda\.query\("cities"\)\n\s+\.eq\("country", "FR"\)/,
    );
    assert.match((await block.locator(".style-xml").textContent())!, /<select id="command">/);
  });

  await step("placeholders take the arguments panel: ? and #{name}", async () => {
    await page.fill("#args-positional", "[50]");
    await page.fill("#args-named", '{"cc": "DE"}');
    await setEditor(
      page,
      'GET /cities/_search\n{"query": {"range": {"lat": {"gte": ?}}}, "size": 0}\n\n' +
        'GET /cities/_search\n{"query": {"term": {"country": #{cc}}}, "size": 0}\n',
    );
    const before = await page.locator("#results .total").count();
    await page.click("#run-all");
    await page.waitForFunction(
      (n) => document.querySelectorAll("#results .total").length >= n + 2,
      before,
    );
    const [named, positional] = await page.locator("#results > section .total").allTextContents();
    assert.equal(positional, String(cities.filter((c) => c.lat >= 50).length));
    assert.equal(named, String(cities.filter((c) => c.country === "DE").length));
  });

  await step("a syntax error shows the library's message and caret", async () => {
    const text = '\nGET /cities/_search\n{"query": {"match_all": {}} "size": 1}';
    await setEditor(page, text, 2);
    const block = await runAtCursor(page);
    const shown = (await block.locator("pre.error").textContent())!;
    let expected = "";
    try {
      parseScript(text);
    } catch (e) {
      expected = `${(e as Error).name}: ${(e as Error).message}`;
    }
    assert.match(expected, /^CommandSyntaxError: .*line 3, column \d+\)\n.*\n\s*\^$/);
    assert.equal(shown, expected);
    assert.equal(await page.locator("#gutter .error-line").textContent(), "3");
    await page.screenshot({ path: new URL("playground-error.png", IMG).pathname });
  });

  await step("a refused command shows the driver's typed error", async () => {
    await setEditor(page, "GET /nowhere/_search");
    const block = await runAtCursor(page);
    assert.match(
      (await block.locator("pre.error").textContent())!,
      /^ResponseError: HTTP 404 index_not_found_exception: no such index \[nowhere\]/,
    );
  });

  await step("a terms aggregation is drawn as bars with its labels", async () => {
    const tour = [
      "# Ctrl+Enter runs the command at the cursor",
      "GET /cities/_search",
      "{",
      '  "size": 0,',
      '  "aggs": {',
      '    "countries": {"terms": {"field": "country", "size": 8}}',
      "  }",
      "}",
      "",
      "# ? takes the positional arguments, #{name} the named ones",
      "GET /cities/_search",
      '{"query": {"term": {"country": #{cc}}}, "size": 3}',
      "",
      "GET /cities/_search",
      '{"query": {"range": {"lat": {"gte": ?}}}}',
    ].join("\n");
    await page.click("#clear");
    await setEditor(page, tour, 12);
    await runAtCursor(page);
    await setEditor(page, tour, 2);
    const block = await runAtCursor(page);
    const counts = new Map<string, number>();
    for (const c of cities) counts.set(c.country, (counts.get(c.country) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8);
    const bars = block.locator("svg[data-agg=countries] rect.bar");
    assert.equal(await bars.count(), 8);
    assert.deepEqual(
      await block.locator("svg[data-agg=countries] text.label").allTextContents(),
      top.map(([k]) => k),
    );
    const values = await bars.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute("data-value")))
    );
    assert.deepEqual(values, top.map(([, n]) => n));
    await page.screenshot({ path: new URL("playground.png", IMG).pathname });
  });

  await step("a histogram is a line; a terms under a range is grouped bars", async () => {
    await setEditor(
      page,
      'GET /cities/_search\n{"size": 0, "aggs": {"lat": {"histogram": {"field": "lat", "interval": 30}},\n' +
        '"bands": {"range": {"field": "lat", "ranges": [{"to": 0}, {"from": 0}]},\n' +
        '  "aggs": {"top": {"terms": {"field": "country", "size": 2}}}}}}',
    );
    const block = await runAtCursor(page);
    const buckets = new Set(cities.map((c) => Math.floor(c.lat / 30) * 30));
    const span = (Math.max(...buckets) - Math.min(...buckets)) / 30 + 1;
    assert.equal(
      await block.locator("svg[data-agg=lat][data-kind=line] circle.point").count(),
      span,
    );
    const grouped = block.locator("svg[data-agg=bands] rect.bar");
    const series = new Set(
      await grouped.evaluateAll((els) => els.map((e) => e.getAttribute("data-series"))),
    );
    assert.ok(series.size >= 2 && series.size <= 4);
    assert.equal(await grouped.count(), 2 * series.size);
    assert.deepEqual(await block.locator("svg[data-agg=bands] text.label").allTextContents(), [
      "*-0.0",
      "0.0-*",
    ]);
    await page.screenshot({ path: new URL("playground-charts.png", IMG).pathname });
  });

  await step("a knn search shows its scores", async () => {
    await setEditor(
      page,
      'PUT /vec\n{"mappings": {"properties": {"v": {"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}}}}\n\n' +
        'POST /_bulk?refresh=true\n{"index": {"_index": "vec", "_id": "a"}}\n{"v": [0, 0]}\n' +
        '{"index": {"_index": "vec", "_id": "b"}}\n{"v": [3, 4]}\n{"index": {"_index": "vec", "_id": "c"}}\n{"v": [1, 0]}\n\n' +
        'GET /vec/_search\n{"knn": {"field": "v", "query_vector": [0, 0], "k": 3, "num_candidates": 10}}\n',
    );
    const before = await page.locator("#results > section").count();
    await page.click("#run-all");
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll("#results > section").length >= n + 3 &&
        document.querySelector("#results > section svg[data-agg=knn]") !== null,
      before,
    );
    const block = page.locator("#results > section").first();
    const labels = await block.locator("svg[data-agg=knn] text.label").allTextContents();
    assert.deepEqual(labels, ["a", "c", "b"]);
    const scores = await block.locator("table.rows tbody td:first-child").allTextContents();
    // l2_norm: 1 / (1 + d²)
    const expected = [1, 0.5, 1 / 26];
    assert.equal(scores.length, 3);
    scores.forEach((s, i) => assert.ok(Math.abs(Number(s) - expected[i]!) < 1e-6, `score ${s}`));
    const bars = await block.locator("svg[data-agg=knn] rect.bar").evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute("data-value")))
    );
    assert.deepEqual(bars, scores.map(Number));
  });

  await step("an NDJSON file loads with a progress bar", async () => {
    const n = 2500;
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ n: i, even: i % 2 === 0 }))
      .join("\n");
    await page.fill("#load-index", "uploads");
    const file = `${userDataDir}/numbers.ndjson`;
    await Deno.writeTextFile(file, lines + "\n");
    await page.setInputFiles("#load-file", file);
    const loads = await page.locator("#results .loaded").count();
    const loaded = page.locator("#results .loaded").first();
    await page.waitForFunction(
      (n) => document.querySelectorAll("#results .loaded").length > n,
      loads,
    );
    assert.equal(await loaded.textContent(), String(n));
    assert.equal(
      await page.locator("#progress").evaluate((p) => (p as unknown as PageElement).value),
      n,
    );
    await setEditor(page, 'GET /uploads/_search\n{"size": 0, "query": {"term": {"even": true}}}');
    const block = await runAtCursor(page);
    assert.equal(await block.locator(".total").textContent(), String(n / 2));
  });

  await step("history is kept in localStorage across a reload", async () => {
    const kept = await page.evaluate(() =>
      JSON.parse(localStorage.getItem("searchvisitor.playground.history") ?? "[]")
    );
    assert.ok(
      kept.includes('GET /uploads/_search\n{"size": 0, "query": {"term": {"even": true}}}'),
    );
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    const options = await page.locator("#history option").count();
    assert.equal(options, kept.length + 1);
    assert.match(await page.inputValue("#editor"), /GET \/uploads\/_search/);
  });

  assert.deepEqual(problems, []);
} catch (error) {
  const page = context.pages()[0];
  if (page) {
    const failure = await Deno.makeTempFile({ prefix: "playground-failure-", suffix: ".png" });
    await page.screenshot({ path: failure });
    console.error(
      `the page at the failure: ${failure}\n${await page.locator("#results").innerText()}`,
    );
  }
  throw error;
} finally {
  await context.close();
  await playground.close();
  await Deno.remove(userDataDir, { recursive: true });
}
console.log(`playground browser tests: ${passed} passed, 0 failed`);
