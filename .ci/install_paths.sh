#!/usr/bin/env bash
# The install paths of docs/install.md, run as a newcomer types them: a fresh clone of this
# repository (HEAD: commit first) in an empty folder, then every `<!-- install: … -->` block of the
# page in order in one shell (tools/install_paths.ts turns them into a script), with no terminal
# on stdin. Then every plain JavaScript block of the guides runs as an .mjs file on this machine's
# Node against the package the install path put into my-app/node_modules.
# Usage: .ci/install_paths.sh [deno command...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
DENO=("$@")
[ ${#DENO[@]} -eq 0 ] && DENO=(deno)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
  echo "note: uncommitted changes are not in the clone; the paths run against HEAD"
git clone --quiet "$root" "$work/searchvisitor"

"${DENO[@]}" run -A tools/install_paths.ts script docs/install.md >"$work/install.sh"
(cd "$work" && SV_WORK="$work" bash -euo pipefail install.sh </dev/null)

[ -d "$work/my-app/node_modules/@searchvisitor/searchvisitor" ] ||
  { echo "the install path left no package in my-app"; exit 1; }
echo "== the guides' plain JavaScript blocks on $(node --version), from the installed package"
names=$("${DENO[@]}" run -A tools/install_paths.ts js "$work/my-app" docs/*.md)
for name in $names; do
  (cd "$work/my-app" && node "$name" >/dev/null) || { echo "failed on Node: $name"; exit 1; }
  echo "ok $name"
done
