#!/usr/bin/env bash
# Proves both packages install as a user installs them. The library first, alone: packs it, installs the tarball into
# a fresh project with `--omit=dev` plus the kit's optional peers (vitest, fast-check, at the versions this repo tests
# with); checks that no provider SDK came with it and that `scratchpad run` says how to get the runtime; runs the
# store contract suite there against a driver written outside the package (test/packed-install/). Then the runtime:
# packs it, installs it beside the library, and checks that `scratchpad run` is there and the SDKs came with it.
# Prints both production dependency trees. Needs `npm run build` first.
set -euo pipefail
project="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$project"
tarball="$(npm pack --silent --pack-destination "$work")"
runtime_tarball="$(cd packages/runtime && npm pack --silent --pack-destination "$work")"
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
provider_sdks=(openai ollama @anthropic-ai/sdk)
for sdk in "${provider_sdks[@]}"; do
  if [ -d "node_modules/$sdk" ]; then
    echo "installing the library alone brought a provider SDK: $sdk" >&2
    exit 1
  fi
done
echo "+ the library's production dependency tree"
npm ls --omit=dev --all
# The runtime's commands are listed, and say how to install the runtime when it is missing.
set +e
missing="$(npx --no-install scratchpad run 'hello' 2>&1)"
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q 'RUNTIME_NOT_INSTALLED' <<<"$missing" || ! grep -q 'npm install llm-scratchpad-runtime' <<<"$missing"; then
  echo "scratchpad run without the runtime (exit $status) did not say how to install it:" >&2
  echo "$missing" >&2
  exit 1
fi
echo "+ store contract from the packed llm-scratchpad/test, in $consumer"
npx vitest run

echo "+ the packed runtime beside the library"
npm install --omit=dev --no-audit --no-fund "$work/$runtime_tarball"
for sdk in "${provider_sdks[@]}"; do
  if [ ! -d "node_modules/$sdk" ]; then
    echo "the runtime did not bring its provider SDK $sdk" >&2
    exit 1
  fi
done
npx --no-install scratchpad run --help | grep -q 'Usage: scratchpad run'
npx --no-install scratchpad executor --help | grep -q 'Usage: scratchpad executor'
node --input-type=module -e "const runtime = await import('llm-scratchpad-runtime'); if (typeof runtime.runQuery !== 'function') process.exit(1);"
echo "+ the runtime's production dependency tree"
npm ls --omit=dev --all
