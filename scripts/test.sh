#!/usr/bin/env bash
# Every test: typecheck, lint, unit and integration (PGlite, or PostgreSQL when DATABASE_URL is set),
# then the browser tests in Chromium against the built client.
# `--engine-only` runs just the tests that depend on the database engine (CI's second pass, on
# PostgreSQL, after a full run on PGlite has checked and built the same tree).
# Each phase's duration is printed at the end (also when a phase fails), and each vitest run lists its ten
# slowest files (scripts/slowest-files.ts), so growth is seen the day it happens (issue 27).
set -euo pipefail
cd "$(dirname "$0")/.."
engine=$([ -n "${DATABASE_URL:-}" ] && echo PostgreSQL || echo PGlite)
phases=()
run_started=$SECONDS
summary() {
  local rc=$?
  echo
  echo "== phases ($engine)"
  for p in "${phases[@]}"; do echo "  $p"; done
  printf '  %-44s %5d s\n' "total" $((SECONDS - run_started))
  exit $rc
}
trap summary EXIT
# phase NAME COMMAND...: runs the command and records how long it took.
phase() {
  local name=$1 started=$SECONDS rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  phases+=("$(printf '%-44s %5d s%s' "$name" $((SECONDS - started)) "$([ $rc -eq 0 ] || echo '  FAILED')")")
  return $rc
}
vitest=(npx vitest run --reporter=default --reporter=./scripts/slowest-files.ts)

phase "browser and fonts (installed once)" bash scripts/ensure-browser.sh
if [ "${1:-}" != "--engine-only" ]; then
  # The six TypeScript projects and Biome at once: on two cores they overlap well (tsc waits on files).
  phase "typecheck + lint (in parallel)" bash -c '
    npm run --silent typecheck > /tmp/dzy-typecheck.$$ 2>&1 & tc=$!
    npm run --silent lint; lint=$?
    wait $tc; tcrc=$?
    cat /tmp/dzy-typecheck.$$; rm -f /tmp/dzy-typecheck.$$
    [ $tcrc -eq 0 ] || echo "typecheck FAILED"
    [ $lint -eq 0 ] || echo "lint FAILED"
    [ $tcrc -eq 0 ] && [ $lint -eq 0 ]'
  phase "glossary is current" npx tsx scripts/glossary.ts --check
fi
phase "unit and integration tests ($engine)" "${vitest[@]}" --project server
if [ "${1:-}" != "--engine-only" ] || [ ! -f apps/web/dist/index.html ] || [ ! -f apps/server/build/main.mjs ]; then
  phase "build (web client, server, simulator; once)" npm run --silent build
fi
phase "browser tests ($engine)" "${vitest[@]}" --project e2e
