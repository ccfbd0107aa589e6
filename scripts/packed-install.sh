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
# The native modules' install scripts are skipped here and their binaries, built for this same Node by the
# project's own install, copied in: this step tests the package's files and module resolution, not node-gyp.
npm install --omit=dev --ignore-scripts --no-audit --no-fund \
  "$work/$tarball" "vitest@$vitest_version" "fast-check@$fast_check_version"
for native in better-sqlite3 re2; do
  installed="$(node -p "require('./node_modules/$native/package.json').version")"
  built="$(node -p "require('$project/node_modules/$native/package.json').version")"
  if [ "$installed" != "$built" ]; then
    echo "$native: the tarball installed $installed, the project built $built" >&2
    exit 1
  fi
  mkdir -p "node_modules/$native/build"
  cp -R "$project/node_modules/$native/build/Release" "node_modules/$native/build/"
done
if [ -d node_modules/typescript ] || [ -d node_modules/@biomejs ]; then
  echo "a devDependency was installed with --omit=dev" >&2
  exit 1
fi
echo "+ store contract from the packed llm-scratchpad/test, in $consumer"
npx vitest run
