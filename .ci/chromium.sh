#!/usr/bin/env bash
# The playground's browser tests (tests/playground_browser.ts): Debian's Chromium, installed here
# when it is missing (apt-get as root, or through sudo), driven headless by playwright-core from
# npm — no browser download. Usage: .ci/chromium.sh DENO...
set -euo pipefail
cd "$(dirname "$0")/.."
DENO=("$@")
[ ${#DENO[@]} -gt 0 ] || DENO=(npx -y deno@2)

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "Chromium is missing: installing Debian's chromium"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
fi
"$chromium" --version
CHROMIUM="$chromium" "${DENO[@]}" task test:browser
