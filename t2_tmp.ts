import { Engine } from "./engine/mod.ts";
const e = new Engine();
async function c(m: string, p: string, b?: unknown) {
  const r = await e.fetch(new Request("http://x" + p, { method: m, headers: { "content-type": "application/json" }, body: b === undefined ? undefined : JSON.stringify(b) }));
  return [r.status, await r.text()];
}
await c("PUT", "/src/_doc/1?refresh=true&routing=r1", { a: 1 });
console.log(await c("PUT", "/_cluster/settings", { persistent: { "action.auto_create_index": false } }));
console.log(await c("POST", "/_reindex", { source: { index: "src" }, dest: { index: "nope" } }));
await c("PUT", "/d");
await c("PUT", "/d/_doc/1?routing=r1", {a: 0});
console.log(await c("POST", "/_reindex", { source: { index: "src" }, dest: { index: "d", op_type: "create" } }));
e.close();
