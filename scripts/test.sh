#!/usr/bin/env bash
# Every test: typecheck, lint, unit and integration (PGlite, or PostgreSQL when DATABASE_URL is set),
# then the browser tests in Chromium against the built client.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-browser.sh
echo "== typecheck" && npm run --silent typecheck
echo "== lint" && npm run --silent lint
echo "== glossary is current" && npx tsx scripts/glossary.ts --check
echo "== unit and integration tests" && npx vitest run --project server
echo "== build web client" && npm run --silent build -w @dzy/web
echo "== browser tests" && npx vitest run --project e2e
