#!/usr/bin/env bash
# Every test: typecheck, lint, unit and integration (PGlite, or PostgreSQL when DATABASE_URL is set),
# then the browser tests in Chromium against the built client.
# `--engine-only` runs just the tests that depend on the database engine (CI's second pass, on
# PostgreSQL, after a full run on PGlite has checked and built the same tree).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-browser.sh
if [ "${1:-}" != "--engine-only" ]; then
  echo "== typecheck" && npm run --silent typecheck
  echo "== lint" && npm run --silent lint
  echo "== glossary is current" && npx tsx scripts/glossary.ts --check
fi
echo "== unit and integration tests" && npx vitest run --project server
if [ "${1:-}" != "--engine-only" ] || [ ! -f apps/web/dist/index.html ] || [ ! -f apps/server/build/main.mjs ]; then
  echo "== build (web client, server and simulator, as npm start runs them)" && npm run --silent build
fi
echo "== browser tests" && npx vitest run --project e2e
