// The edge-style run of CI: `deno run --no-prompt tests/edge/run.ts` (no -A, no permission at
// all). It checks that it really has no file system, environment or network access, then calls
// the edge function's handler the way a platform would, and prints "edge ok".
import assert from "node:assert/strict";
import handler from "./edge_function.ts";

for (const name of ["read", "write", "env", "net", "run", "sys", "ffi"] as const) {
  assert.notEqual(
    (await Deno.permissions.query({ name })).state,
    "granted",
    `the edge run must have no ${name} permission`,
  );
}
try {
  const res = await handler.fetch(new Request("https://edge.example/people?q=ada"));
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(body, { total: 1, hits: [{ name: "Ada Lovelace", born: 1815 }] });
  console.log("edge ok: the library ran with no file system, environment or network permission");
} finally {
  handler.close();
}
