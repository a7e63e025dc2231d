import assert from "node:assert/strict";
import {
  checkCommand,
  type CheckOptions,
  checkSource,
  formatDiagnostic,
  MappingModel,
  sourceKindOf,
} from "./mod.ts";
import { conformanceDir, restRequests } from "../tests/support/rest_requests.ts";

const ROOT = new URL("../", import.meta.url);

function flagged(texts: { source: string; text: string }[], options: CheckOptions): string[] {
  const out: string[] = [];
  for (const { source, text } of texts) {
    for (const d of checkCommand(text, options)) {
      out.push(`${source}: ${formatDiagnostic(text, d)}`);
    }
  }
  return out;
}

Deno.test("no false positive on the OpenSearch REST suite's requests", () => {
  const dir = conformanceDir();
  if (!dir) {
    console.log("check corpus: ../shared/conformance is absent; the OpenSearch corpus is skipped");
    return;
  }
  const requests = restRequests(dir);
  assert.ok(requests.length > 800, `only ${requests.length} requests read`);
  assert.deepEqual(flagged(requests, { flavor: "opensearch" }), []);
  console.log(`check corpus: ${requests.length} OpenSearch REST requests, 0 diagnostics`);
});

Deno.test("no false positive on the Elasticsearch specification's request examples", () => {
  const file = new URL("tests/support/es_examples/examples.json", ROOT);
  const { examples } = JSON.parse(Deno.readTextFileSync(file)) as {
    examples: { source: string; text: string }[];
  };
  assert.ok(examples.length > 700);
  assert.deepEqual(flagged(examples, {}), []);
  console.log(`check corpus: ${examples.length} Elasticsearch examples, 0 diagnostics`);
});

Deno.test("no false positive on this repository's README, guides and examples", () => {
  const files = [
    "README.md",
    ...[...Deno.readDirSync(new URL("docs/", ROOT))].map((e) => `docs/${e.name}`),
    ...[...Deno.readDirSync(new URL("examples/", ROOT))].map((e) => `examples/${e.name}`),
  ]
    // docs/checking.md shows mistakes on purpose: it is the checker's own guide.
    .filter((f) => /\.(md|ts)$/.test(f) && f !== "docs/checking.md");
  const out: string[] = [];
  let commands = 0;
  for (const f of files) {
    const text = Deno.readTextFileSync(new URL(f, ROOT));
    const kind = sourceKindOf(f);
    if (kind === "xml") continue;
    for (const d of checkSource(text, kind)) {
      // docs/errors.md shows a command that does not parse, on purpose.
      if (f === "docs/errors.md" && d.code === "syntax" && /"nope"/.test(d.message)) continue;
      out.push(`${f}: ${d.rendered}`);
    }
    commands += text.split(/\b(?:GET|POST|PUT|DELETE) \//).length - 1;
  }
  assert.deepEqual(out, []);
  assert.ok(commands > 50, `only ${commands} commands seen`);
});

// ---- Seeded mistakes: each is caught, with the right code, at the seeded token. ----

interface Seed {
  /** The text; the seeded token is written between ⟦ and ⟧. */
  readonly text: string;
  readonly code: string;
  readonly suggestion?: string;
  readonly options?: CheckOptions;
}

function typos(word: string): string[] {
  const out = new Set<string>();
  const core = word.replace(/^_/, "");
  const prefix = word.startsWith("_") ? "_" : "";
  for (let i = 1; i < core.length - 1; i++) {
    out.add(prefix + core.slice(0, i) + core[i + 1] + core[i] + core.slice(i + 2)); // swap
  }
  for (let i = 1; i < core.length; i++) out.add(prefix + core.slice(0, i) + core.slice(i + 1)); // drop
  out.add(prefix + core + core.at(-1)); // double the last
  out.delete(word);
  return [...out];
}

const MAPPING = MappingModel.from({
  users: {
    mappings: {
      dynamic: "strict",
      properties: {
        name: { type: "text", fields: { keyword: { type: "keyword" } } },
        bio: { type: "text" },
        age: { type: "long" },
        born: { type: "date", format: "yyyy-MM-dd" },
        seen: { type: "date" },
        tags: { type: "keyword" },
        address: { properties: { city: { type: "keyword" }, street: { type: "text" } } },
        pets: { type: "nested", properties: { kind: { type: "keyword" } } },
      },
    },
  },
});

function seeds(): Seed[] {
  const out: Seed[] = [];
  const queries: Record<string, string> = {
    term: '{"name.keyword": "a"}',
    match: '{"bio": "a"}',
    range: '{"age": {"gte": 1}}',
    bool: '{"must": []}',
    exists: '{"field": "age"}',
    prefix: '{"tags": "a"}',
    wildcard: '{"tags": "a*"}',
    match_phrase: '{"bio": "a b"}',
    multi_match: '{"query": "a", "fields": ["bio"]}',
    query_string: '{"query": "a"}',
    constant_score: '{"filter": {"match_all": {}}}',
  };
  for (const [name, body] of Object.entries(queries)) {
    for (const t of typos(name)) {
      if (t in queries || t === "terms" || t === "regexp" || t === "match_all") continue;
      out.push({
        text: `GET /users/_search\n{"query": {⟦"${t}"⟧: ${body}}}`,
        code: "unknown-key",
        suggestion: name,
      });
    }
  }
  for (
    const key of [
      "size",
      "query",
      "aggs",
      "sort",
      "_source",
      "highlight",
      "from",
      "track_total_hits",
    ]
  ) {
    for (const t of typos(key)) {
      out.push({ text: `POST /users/_search {⟦"${t}"⟧: 1}`, code: "unknown-key" });
    }
  }
  for (
    const endpoint of ["_search", "_count", "_mapping", "_refresh", "_settings", "_delete_by_query"]
  ) {
    for (const t of typos(endpoint)) {
      out.push({ text: `GET /users/⟦${t}⟧`, code: "unknown-endpoint" });
    }
  }
  for (const param of ["refresh", "routing", "timeout", "pipeline", "require_alias"]) {
    for (const t of typos(param)) {
      out.push({
        text: `POST /users/_doc?⟦${t}⟧=1\n{"a": 1}`,
        code: "unknown-param",
        suggestion: param,
      });
    }
  }
  out.push({
    text: "POST /users/_doc?⟦refesh⟧=true\n{}",
    code: "unknown-param",
    suggestion: "refresh",
  });
  for (
    const [method, path] of [
      ["PUT", "/users/_search"],
      ["DELETE", "/users/_count"],
      ["PUT", "/users/_refresh"],
      [
        "GET",
        "/users/_update/1",
      ],
      ["DELETE", "/users/_search"],
      ["PUT", "/_cluster/health"],
    ]
  ) {
    out.push({ text: `⟦${method}⟧ ${path}`, code: "wrong-method" });
  }
  for (
    const [param, value] of [["explain", "yes"], ["pretty", "maybe"], ["size", "ten"], [
      "from",
      "x1",
    ], [
      "track_scores",
      "2",
    ]]
  ) {
    out.push({ text: `GET /users/_search?${param}=⟦${value}⟧`, code: "param-kind" });
  }
  for (
    const [key, value] of [["size", '"ten"'], ["from", "{}"], ["explain", '"maybe"'], [
      "query",
      '"x"',
    ], [
      "min_score",
      "[1]",
    ], ["timeout", "{}"]]
  ) {
    out.push({ text: `GET /users/_search {"${key}": ⟦${value}⟧}`, code: "wrong-kind" });
  }
  out.push({ text: 'GET /users/_search {"query": {"bool": {"must": ⟦"x"⟧}}}', code: "wrong-kind" });
  out.push({ text: 'GET /users/_search {"query": {"term": ⟦"x"⟧}}', code: "wrong-kind" });
  for (const agg of ["avg", "date_histogram", "cardinality", "max", "histogram", "top_hits"]) {
    out.push({
      text: `GET /users/_search {"query": {⟦"${agg}"⟧: {"field": "age"}}}`,
      code: "misplaced",
    });
  }
  for (const query of ["match", "bool", "match_phrase", "exists", "wildcard"]) {
    out.push({ text: `GET /users/_search {"aggs": {"a": {⟦"${query}"⟧: {}}}}`, code: "misplaced" });
  }
  for (
    const text of [
      'GET /users/_search {"aggs": {"a": ⟦{⟧"aggs": {"b": {"max": {"field": "age"}}}}}}',
      'GET /users/_search {"query": {"nested": ⟦{⟧"query": {"match_all": {}}}}}',
      'GET /users/_search {"query": {"match": {"bio": ⟦{⟧"operator": "and"}}}}',
      'GET /users/_search {"query": {"match_phrase": {"bio": ⟦{⟧"slop": 1}}}}',
      'GET /users/_search {"query": {"exists": ⟦{⟧}}}',
      'GET /users/_search {"query": {"nested": ⟦{⟧"path": "pets"}}}',
      'GET /users/_search {"aggs": {"a": {"terms": {"field": "tags"}, "aggs": {"b": ⟦{⟧}}}}}',
      'GET /users/_search {"query": {"geo_bounding_box": {"p": {"top_left": [0, 0], "bottom_right": [1, 1]}}}, "aggs": {"a": {"filters": {"filters": {"x": {"match_all": {}}}}}, "b": ⟦{⟧"meta": {}}}}',
    ]
  ) out.push({ text, code: "required" });
  for (const [a, b] of [["match_all", "term"], ["bool", "match"], ["exists", "range"]]) {
    out.push({
      text: `GET /users/_search {"query": {"${a}": {}, ⟦"${b}"⟧: {}}}`,
      code: "exclusive",
    });
  }
  out.push({
    text:
      'GET /users/_search {"aggs": {"a": {"avg": {"field": "age"}, ⟦"max"⟧: {"field": "age"}}}}',
    code: "exclusive",
  });
  for (
    const [written, known] of [["nmae", "name"], ["agee", "age"], ["Name", "name"], [
      "nam.first",
      "name",
    ]]
  ) {
    out.push({
      text: `GET /users/_search {"query": {"term": {"name.keyword": ⟦#{${written}}⟧}}}`,
      code: "placeholder-name",
      options: { parameters: [known!, "size"] },
    });
  }
  out.push({
    text: "GET /users/_doc/⟦#{idd}⟧",
    code: "placeholder-name",
    options: { parameters: ["id"] },
  });
  for (
    const [text, n] of [['⟦G⟧ET /users/_search {"query": {"term": {"a": ?}}}', 2], [
      '⟦G⟧ET /users/_search {"size": ?, "from": ?}',
      1,
    ], ["⟦D⟧ELETE /users/_doc/{?}", 0]] as const
  ) {
    out.push({ text, code: "placeholder-count", options: { argumentCount: n } });
  }
  for (
    const text of [
      'GET /users/_search {"query": {⟦?⟧: {"a": 1}}}',
      'GET /users/_search {"query": {⟦#{kind}⟧: {"a": 1}}}',
      'GET /users/_search {"aggs": {"a": {⟦?⟧: {"field": "age"}}}}',
    ]
  ) out.push({ text, code: "placeholder-literal" });
  for (
    const text of [
      'GET /users/_search {"size": ⟦}⟧',
      'GET /users/_search {"size": 1 ⟦"⟧from": 2}',
      'GET /users/_search {"query": {"match_all": {}}}⟦}⟧',
    ]
  ) out.push({ text, code: "syntax" });
  const m = { mapping: MAPPING };
  for (
    const text of [
      'GET /users/_search {"query": {"term": {⟦"nmae"⟧: "a"}}}',
      'GET /users/_search {"query": {"exists": {"field": "⟦agee⟧"}}}',
      'GET /users/_search {"query": {"range": {⟦"address.town"⟧: {"gte": 1}}}}',
      'GET /users/_search {"sort": [{⟦"bron"⟧: "asc"}]}',
      'GET /users/_search {"aggs": {"a": {"terms": {"field": "⟦tag⟧"}}}}',
      'GET /users/_search {"query": {"match": {⟦"pets.kinds"⟧: "cat"}}}',
    ]
  ) out.push({ text, code: "unknown-field", options: m });
  for (
    const text of [
      'GET /users/_search {"query": {"term": {⟦"name"⟧: "Alice"}}}',
      'GET /users/_search {"query": {"terms": {⟦"bio"⟧: ["a"]}}}',
      'GET /users/_search {"query": {"match_phrase": {⟦"age"⟧: "3"}}}',
      'GET /users/_search {"sort": [{⟦"name"⟧: "asc"}]}',
      'GET /users/_search {"sort": ["⟦bio⟧"]}',
      'GET /users/_search {"aggs": {"a": {"terms": {"field": "⟦name⟧"}}}}',
      'GET /users/_search {"aggs": {"a": {"cardinality": {"field": "⟦address.street⟧"}}}}',
    ]
  ) out.push({ text, code: "field-type", options: m });
  for (
    const text of [
      'GET /users/_search {"query": {"range": {"born": {"gte": ⟦"2024/01/01"⟧}}}}',
      'GET /users/_search {"query": {"range": {"born": {"lt": ⟦"01-02-2024"⟧}}}}',
      'GET /users/_search {"query": {"term": {"born": ⟦"yesterday"⟧}}}',
      'GET /users/_search {"query": {"range": {"seen": {"gte": ⟦"2024-13"⟧, "format": "yyyy"}}}}',
      'GET /users/_search {"query": {"range": {"seen": {"lte": ⟦"last week"⟧}}}}',
    ]
  ) out.push({ text, code: "date-format", options: m });
  // Enumeration values, in bodies and URL parameters.
  for (
    const [text, suggestion] of [
      [
        'GET /users/_search {"query": {"match": {"bio": {"query": "a", "operator": "⟦andd⟧"}}}}',
        "and",
      ],
      ['GET /users/_search {"sort": [{"age": {"order": "⟦dsc⟧"}}]}', "desc"],
      [
        'GET /users/_search {"query": {"multi_match": {"query": "a", "type": "⟦best_field⟧"}}}',
        "best_fields",
      ],
      ["GET /users/_search?search_type=⟦query_then_fetc⟧", "query_then_fetch"],
      ["PUT /users/_doc/1?refresh=⟦wait_fro⟧ {}", "wait_for"],
    ] as const
  ) out.push({ text, code: "unknown-value", suggestion });
  // Documents: `_doc`, `_create`, `_update`'s doc, `_bulk` lines, against a strict mapping.
  for (
    const [text, code] of [
      ['PUT /users/_doc/1 {"name": "a", ⟦"nmae"⟧: "b"}', "unknown-field"],
      ['PUT /users/_create/1 {"address": {⟦"cty"⟧: "Oslo"}}', "unknown-field"],
      ['POST /users/_bulk\n{"index": {}}\n{⟦"agee"⟧: 3}\n', "unknown-field"],
      ['PUT /users/_doc/1 {"age": ⟦"three"⟧}', "field-value"],
      ['POST /users/_update/1 {"doc": {"age": ⟦true⟧}}', "field-value"],
      ['POST /_bulk\n{"create": {"_index": "users"}}\n{"address": ⟦"Oslo"⟧}\n', "field-value"],
      ['PUT /users/_doc/1 {"born": ⟦"2024/01/02"⟧}', "date-format"],
      ['POST /_bulk\n{⟦"indx"⟧: {"_index": "users"}}\n{"age": 1}\n', "unknown-key"],
      ['POST /_bulk\n{"delete": {⟦"_idd"⟧: "1"}}\n', "unknown-key"],
    ] as const
  ) out.push({ text, code, options: m });
  // Inside rule fragments: the fragment is checked in place.
  for (
    const [text, code] of [
      [
        'GET /users/_search {"query": {"bool": {"filter": [@{and, {⟦"trem"⟧: {"age": #{age}}}}]}}}',
        "unknown-key",
      ],
      [
        'GET /users/_search {"query": {"bool": {"must": @{and, {"term": {"age": ⟦#{agge}⟧}}}}}}',
        "placeholder-name",
      ],
      ['GET /users/_search {"query": {"terms": {"age": @{in, ⟦:agess⟧}}}}', "placeholder-name"],
      [
        'GET /users/_search {"query": {"match_all": {}}, @{if, age != null, ⟦"sise"⟧: #{age}}}',
        "unknown-key",
      ],
    ] as const
  ) out.push({ text, code, options: { parameters: ["age"] } });
  return out;
}

function everyKindSeededThrice(byCode: Map<string, { seeded: number }>): boolean {
  return [...byCode.values()].every((e) => e.seeded >= 3);
}

Deno.test("seeded mistakes are caught at the seeded token", () => {
  const all = seeds();
  const byCode = new Map<string, { seeded: number; caught: number }>();
  const missed: string[] = [];
  let suggested = 0;
  let withSuggestion = 0;
  for (const seed of all) {
    const open = seed.text.indexOf("⟦");
    const close = seed.text.indexOf("⟧");
    const text = seed.text.replace("⟦", "").replace("⟧", "");
    const before = text.slice(0, open);
    const line = before.split("\n").length;
    const column = open - before.lastIndexOf("\n");
    const length = close - open - 1;
    const found = checkCommand(text, seed.options ?? {});
    const entry = byCode.get(seed.code) ?? { seeded: 0, caught: 0 };
    entry.seeded++;
    const hit = found.find((d) => d.code === seed.code && d.line === line && d.column === column);
    if (hit && (seed.code === "placeholder-count" || hit.length === length)) {
      entry.caught++;
      if (seed.suggestion !== undefined) {
        withSuggestion++;
        if (hit.suggestion === seed.suggestion) suggested++;
      }
    } else missed.push(`${seed.code} ${JSON.stringify(seed.text)} → ${JSON.stringify(found)}`);
    byCode.set(seed.code, entry);
  }
  assert.deepEqual(missed, []);
  assert.ok(byCode.size >= 18 && everyKindSeededThrice(byCode), `only ${byCode.size} kinds seeded`);
  // A typo's suggestion is the intended word in (nearly) every case.
  assert.ok(suggested >= withSuggestion * 0.9, `${suggested}/${withSuggestion} suggestions right`);
  console.log(
    `check seeded: ${all.length} mistakes of ${byCode.size} kinds, all caught at their token; ` +
      `${suggested}/${withSuggestion} typo suggestions name the intended word`,
  );
});

Deno.test("unknown fields follow dynamic mapping, multi-fields, patterns and runtime fields", () => {
  const mapping = MappingModel.from({
    properties: {
      title: { type: "text", fields: { raw: { type: "keyword" } } },
      meta: { type: "object", dynamic: "strict", properties: { a: { type: "keyword" } } },
    },
  });
  const check = (body: string) => checkCommand(`GET /i/_search ${body}`, { mapping });
  assert.deepEqual(check('{"query": {"term": {"title.raw": "x"}}}'), []);
  assert.deepEqual(
    check('{"query": {"multi_match": {"query": "x", "fields": ["title^2", "tit*"]}}}'),
    [],
  );
  const dynamic = check('{"query": {"term": {"other": "x"}}}');
  assert.deepEqual(dynamic.map((d) => [d.code, d.severity]), [["unknown-field", "warning"]]);
  const strict = check('{"query": {"term": {"meta.b": "x"}}}');
  assert.deepEqual(strict.map((d) => [d.code, d.severity]), [["unknown-field", "error"]]);
  assert.deepEqual(
    check(
      '{"runtime_mappings": {"day": {"type": "keyword"}}, "aggs": {"d": {"terms": {"field": "day"}}}}',
    ),
    [],
  );
  assert.deepEqual(check('{"_source": ["nothing_*"]}').map((d) => d.code), []);
});

Deno.test("template text: named arguments, splices and rules are placeholders", () => {
  assert.deepEqual(
    checkCommand(
      'POST /${index}/_search {"query": {"bool": {"filter": [@{and, {"term": {"a": #{a}}}}]}}, "size": #{n}}',
      { parameters: ["a", "n", "index"] },
    ),
    [],
  );
  assert.deepEqual(checkCommand('POST /i/_update/#{id} {"doc": {@{set, a = :a}}}'), []);
  assert.deepEqual(checkCommand('POST /i/_doc {"note": "said: \\#{name}"}'), []);
});

Deno.test("a text that does not parse gives one syntax diagnostic with the driver's words", () => {
  const [d, ...rest] = checkCommand('GET /i/_search {"size": }');
  assert.deepEqual(rest, []);
  assert.equal(d!.code, "syntax");
  assert.equal(d!.column, 25);
});

Deno.test('the checker reads strings and methods as the driver: """, next-line paths', () => {
  assert.deepEqual(
    checkCommand('GET\n/i/_search/template\n{"source": """{"q": #{q}}""", "params": {}}'),
    [],
  );
  assert.deepEqual(checkCommand('POST\n/i/_doc/#{id}\n{"a": #{a}}'), []);
  const [d] = checkCommand('GET\n/i/_search\n{"query": {"trem": {}}}');
  assert.equal(d?.code, "unknown-key");
  assert.equal(d?.line, 3);
});
