import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter beside the default one: after the run, the ten slowest test files with their time
 * (import, hooks and tests: what the file cost the run), so growth is seen the day it happens (issue 27).
 * With TEST_DURATIONS_FILE set, every file's time is appended there too (tab-separated), to study a run.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: m.moduleId.replace(`${process.cwd()}/`, ''),
          ms: d.duration + d.collectDuration + d.prepareDuration,
        };
      })
      .sort((a, b) => b.ms - a.ms);
    if (!rows.length) return;
    const out = process.env.TEST_DURATIONS_FILE;
    if (out) appendFileSync(out, rows.map((r) => `${(r.ms / 1000).toFixed(1)}\t${r.file}\n`).join(''));
    console.log('\nslowest test files:');
    for (const r of rows.slice(0, 10)) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
  }
}
