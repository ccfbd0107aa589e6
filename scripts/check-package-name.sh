#!/usr/bin/env bash
# Each package's name must not belong to another package on the public npm registry (decision 015): it is free
# (404) or it is this project's (same repository). Both packages of the workspace are checked: the library (the
# root) and the runtime (packages/runtime). A registry that cannot be reached fails the check loudly: passing
# without an answer would prove nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
ours="$(node -p "require('./package.json').repository?.url ?? ''")"

check() {
  local name="$1" answer status published
  set +e
  answer="$(npm view "$name" name repository.url --json 2>&1)"
  status=$?
  set -e
  if [ "$status" -eq 0 ]; then
    published="$(node -e 'const a = JSON.parse(process.argv[1]); console.log(a["repository.url"] ?? "")' "$answer")"
    if [ -n "$ours" ] && [ "$published" = "$ours" ]; then
      echo "npm: $name is published from this project's repository ($ours)"
      return 0
    fi
    echo "npm: the name $name belongs to another package (repository: ${published:-none}); choose another (decision 015)" >&2
    return 1
  fi
  if grep -q 'E404' <<<"$answer"; then
    echo "npm: $name is free (404 Not Found)"
    return 0
  fi
  echo "npm: cannot tell whether $name is free: the registry did not answer (exit $status):" >&2
  echo "$answer" >&2
  return 1
}

for manifest in package.json packages/runtime/package.json; do
  check "$(node -p "require('./$manifest').name")"
done
