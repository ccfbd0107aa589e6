#!/usr/bin/env bash
# Proves `llm-scratchpad/test` works after a production install: packs the package, installs the tarball into a
# fresh project with `--omit=dev` plus the kit's optional peers (vitest, fast-check, at the versions this repo
# tests with), and runs the store contract suite there against a driver written outside the package
# (test/packed-install/). Needs `npm run build` first.
set -euo pipefail
project="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$project"
tarball="$(npm pack --silent --pack-destination "$work")"
# `scratchpad ui` serves its web app from the package: the built files must be in the tarball.
if ! tar -tzf "$work/$tarball" | grep -c '^package/dist/web/index.html$' >/dev/null; then
  echo "the tarball has no dist/web/index.html: run npm run build (it builds the web app with Vite)" >&2
  exit 1
fi
peer_version() { node -p "require('./package.json').devDependencies['$1']"; }
vitest_version="$(peer_version vitest)" fast_check_version="$(peer_version fast-check)"

consumer="$work/consumer"
mkdir -p "$consumer"
cp test/packed-install/*.js "$consumer/"
cd "$consumer"
printf '{ "name": "third-party-driver", "private": true, "type": "module" }\n' > package.json
# A user's install compiles nothing (decision 014): no native module of the tree is built here. A compiler
# would leave build/ output (node-gyp's build/Release/*.node): any is a failure.
npm install --omit=dev --no-audit --no-fund \
  "$work/$tarball" "vitest@$vitest_version" "fast-check@$fast_check_version"
compiled="$(find node_modules -path '*/build/*' -name '*.node' -print)"
if [ -n "$compiled" ]; then
  echo "the install compiled native modules:" >&2
  echo "$compiled" >&2
  exit 1
fi
if [ -d node_modules/typescript ] || [ -d node_modules/@biomejs ]; then
  echo "a devDependency was installed with --omit=dev" >&2
  exit 1
fi
echo "+ store contract from the packed llm-scratchpad/test, in $consumer"
npx vitest run
