#!/usr/bin/env bash
# The npm package as a user gets it: build, `npm pack`, install the tarball into an empty project,
# and run tests/npm/smoke.mjs on Node (the machine's, and 22 from npm) and on Bun.
# Usage: .ci/npm_smoke.sh [deno command...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
DENO=("$@")
[ ${#DENO[@]} -eq 0 ] && DENO=(deno)

"${DENO[@]}" task build:npm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd dist/npm && npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/*.tgz)
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) kB)"

mkdir "$work/app"
cd "$work/app"
echo '{ "name": "smoke-app", "private": true, "type": "module" }' >package.json
npm install --silent --no-audit --no-fund "$tarball"
deps=$(node -e 'const p=require("./node_modules/@searchvisitor/searchvisitor/package.json");
  console.log(Object.keys({...p.dependencies, ...p.peerDependencies}).length)')
[ "$deps" = 0 ] || { echo "the package has $deps dependencies"; exit 1; }
cp "$root/tests/npm/smoke.mjs" "$root/tests/npm/types_check.ts" "$root/tests/npm/fetch_node_check.mjs" .

echo "== the package's types, as a Node TypeScript project sees them (tsc, NodeNext, no skipLibCheck)"
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
  "strict": true, "noEmit": true, "skipLibCheck": false, "types": [],
  "lib": ["ES2022", "DOM", "DOM.Iterable", "ESNext.Disposable"] }, "files": ["types_check.ts"] }
JSON
npx -y -p typescript@5.8.3 tsc -p .

echo "== npm smoke on $(node --version)"
node smoke.mjs
echo "== npm smoke on Node 22 (from npm)"
npx -y node@22 smoke.mjs
echo "== npm smoke on bun"
npx -y bun smoke.mjs

echo "== contrib/fetch_node on Node 20, Node 22 and Bun"
node fetch_node_check.mjs
npx -y node@22 fetch_node_check.mjs
npx -y bun fetch_node_check.mjs

echo "== the edge path of docs/install.md: esm/ copied next to a module, run with no permission"
mkdir "$work/edge"
cp -r node_modules/@searchvisitor/searchvisitor/esm "$work/edge/searchvisitor"
sed -E 's#"@searchvisitor/searchvisitor/([a-z]+)"#"./searchvisitor/\1/mod.js"#' "$root/tests/npm/edge.mjs" >"$work/edge/edge.mjs"
grep -q '"./searchvisitor/driver/mod.js"' "$work/edge/edge.mjs"
(cd "$work/edge" && "${DENO[@]}" run --no-prompt edge.mjs)

echo "== the searchvisitor bin on Node and Bun (commands piped in, the embedded engine)"
script='PUT /p/_doc/1?refresh=true {"n": 1}
GET /p/_count'
expected='{"updated":1}
{"COUNT":1}'
got=$(printf '%s\n' "$script" | npx --no-install searchvisitor --engine --format ndjson)
[ "$got" = "$expected" ] || { echo "node bin printed: $got"; exit 1; }
got=$(printf '%s\n' "$script" | npx -y bun node_modules/.bin/searchvisitor --engine --format ndjson)
[ "$got" = "$expected" ] || { echo "bun bin printed: $got"; exit 1; }
code=0
echo 'GET /nowhere/_search' | npx --no-install searchvisitor --engine 2>/dev/null || code=$?
[ "$code" = 1 ] || { echo "expected exit code 1 for a refused command, got $code"; exit 1; }
echo "bin ok"
