import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter beside the default one: after the run, the ten slowest test files with their time
 * (import, hooks and tests: what the file cost the run), so growth is seen the day it happens (issue 27).
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
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (!rows.length) return;
    console.log('\nslowest test files:');
    for (const r of rows) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
  }
}
