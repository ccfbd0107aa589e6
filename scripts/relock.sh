#!/usr/bin/env bash
# Re-lock: rewrite package-lock.json from package.json so that it keeps every platform's optional packages
# (Biome's, Rollup's, esbuild's binaries for macOS, Windows, musl, ...), then install node_modules from it.
#
# Why: npm resolves a lock file from the installed node_modules when one is present, and then drops the optional
# packages of other platforms (npm/cli#4828, #8320). `npm ci` on a fresh clone then fails with
# "Missing: @biomejs/cli-... from lock file". Resolving in an empty directory keeps them, and keeps every version
# already locked.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp package.json "$scratch/"
# The workspaces (the root is one, the runtime the other): npm needs their package.json files to lock them.
mkdir -p "$scratch/packages/runtime"
cp packages/runtime/package.json "$scratch/packages/runtime/"
if [ -f package-lock.json ]; then cp package-lock.json "$scratch/"; fi
(cd "$scratch" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund)
cp "$scratch/package-lock.json" package-lock.json
npm install --no-audit --no-fund
