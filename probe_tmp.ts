import { Engine } from "./engine/mod.ts";
const e = new Engine();
const f = async (m: string, p: string, b?: unknown, nd = false) => {
  const r = await e.fetch(new Request("http://x" + p, { method: m, headers: b !== undefined ? { "content-type": nd ? "application/x-ndjson" : "application/json" } : {}, body: b === undefined ? undefined : nd ? b as string : JSON.stringify(b) }));
  const t = await r.text(); console.log(m, p, r.status, t.slice(0, 400)); return t;
};
await f("PUT", "/test_1/_doc/id_1?refresh", { foo: "bar", title: "howdy" });
await f("POST", "/test_1/_explain/id_1?_source=true", { query: { match_all: {} } });
await f("POST", "/test_1/_explain/id_1?_source=false", { query: { match_all: {} } });
await f("POST", "/test_1/_explain/id_1?_source_includes=foo&filter_path=get", { query: { match_all: {} } });
await f("POST", "/test_1/_explain/id_1?stored_fields=foo&filter_path=get", { query: { match_all: {} } });
await f("POST", "/test_1/_explain/id_1?q=foo:bar", undefined);
await f("POST", "/test_1/_explain/id_1", { query: { term: { foo: "bar" } } , _source: true});
await f("POST", "/test_1/_explain/nope", { query: { term: { foo: "bar" } }});
await f("POST", "/nope/_explain/1", { query: { term: { foo: "bar" } }});
await f("GET", "/test_1/_termvectors/id_1?fields=title");
