// Type-checked by .ci/npm_smoke.sh with tsc (NodeNext resolution, strict, no @types/node, lib checks on):
// the npm package's .d.ts files resolve through its exports map and hold up for a Node TypeScript user.
// Never run (the server it starts is never closed): it only has to compile.
import { DataSource, ResponseError, type TransportEvent } from "@searchvisitor/searchvisitor";
import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
import { Configuration } from "@searchvisitor/searchvisitor/mapper";
import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
import { formatTable, runCli } from "@searchvisitor/searchvisitor/cli";
import { otelListener } from "@searchvisitor/searchvisitor/contrib/otel";
import { type NodeFetch, nodeFetch } from "@searchvisitor/searchvisitor/contrib/fetch_node";
import { parseMapperFile, type RenderedStatement } from "@searchvisitor/searchvisitor/xml";
const engine = new Engine();
const server = await serve(engine);
const events: TransportEvent[] = [];
const ds = new DataSource(server.url, { onEvent: (e) => events.push(e) });
const jdbc = new JdbcTemplate(ds);
const n: number | bigint | null = await jdbc.queryForNumber("GET /_count");
const e: unknown = null;
const status: number | undefined = e instanceof ResponseError ? e.status : undefined;
const t: string = formatTable(["a"], [[1]]);
void runCli;
void otelListener;
void n;
void t;
void status;
void [new Configuration(), LambdaTemplate];
const file = parseMapperFile('<mapper namespace="n"><select id="s">GET /_count</select></mapper>');
const rendered: RenderedStatement | undefined = file.statements.get("s")?.render({});
void rendered;
const fast: NodeFetch = nodeFetch({ maxSockets: 16, tls: { rejectUnauthorized: true } });
const viaNode = new DataSource({ nodes: [server.url], fetch: fast });
void viaNode;
