#!/usr/bin/env bash
# The npm package as a user gets it: build, `npm pack`, install the tarball into an empty project,
# and run tests/npm/smoke.mjs on Node and on Bun. Usage: .ci/npm_smoke.sh [deno command...]
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
cp "$root/tests/npm/smoke.mjs" .

echo "== npm smoke on $(node --version)"
node smoke.mjs
echo "== npm smoke on bun"
npx -y bun smoke.mjs
