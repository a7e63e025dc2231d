// An edge function as a platform runs it (Deno Deploy, Cloudflare Workers, Vercel Edge, Netlify
// Edge): a module whose default export answers `fetch(request)`, with no file system and no
// environment. It serves a small people search through JdbcTemplate; here the cluster is the
// embedded engine in the same isolate (in production: `new DataSource(url, { auth })`).
import { DataSource } from "@searchvisitor/searchvisitor/driver";
import { JdbcTemplate, listMeta } from "@searchvisitor/searchvisitor/template";
import { Engine } from "@searchvisitor/searchvisitor/engine";

const engine = new Engine();
const jdbc = new JdbcTemplate(
  new DataSource({ nodes: ["http://cluster.internal"], fetch: engine.fetch, indexRefresh: true }),
);
let seeded: Promise<void> | undefined;

function seed(): Promise<void> {
  seeded ??= (async () => {
    for (const [id, name, born] of [["1", "Ada Lovelace", 1815], ["2", "Alan Turing", 1912]]) {
      await jdbc.executeUpdate('PUT /people/_doc/#{id} {"name": #{name}, "born": #{born}}', {
        id,
        name,
        born,
      });
    }
  })();
  return seeded;
}

export default {
  async fetch(request: Request): Promise<Response> {
    await seed();
    const q = new URL(request.url).searchParams.get("q") ?? "";
    const rows = await jdbc.queryForList(
      'POST /people/_search {"query": {"match": {"name": #{q}}}}',
      { q },
    );
    return Response.json({
      total: listMeta(rows).total?.value ?? 0,
      hits: rows.map((r) => JSON.parse(String(r._DOC))),
    });
  },
  close(): void {
    engine.close();
  },
};
