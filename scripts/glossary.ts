import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GLOSSARY } from '@dzy/shared';

// docs/glossary.md is generated from packages/shared/src/glossary.ts; `--check` fails when it is stale.
const file = resolve(import.meta.dirname, '../docs/glossary.md');
const rows = Object.entries(GLOSSARY)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([field, e]) => `| \`${field}\` | ${e.zh} | ${e.meaning} |`);
const text = `# Glossary

The spec's field names stay on the wire; this table explains each. It is generated from
\`packages/shared/src/glossary.ts\` (\`npx tsx scripts/glossary.ts\`), which also names fields in
validation messages. Edit that file, not this one.

| field | 中文 | meaning |
|---|---|---|
${rows.join('\n')}
`;
if (process.argv.includes('--check')) {
  const current = readFileSync(file, 'utf8');
  if (current !== text) {
    console.error('docs/glossary.md is stale: run npx tsx scripts/glossary.ts');
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
}
