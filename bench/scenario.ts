import type { Db } from '../apps/server/src/db/client.js';
import type { HttpSpec } from './load.js';
import type { BenchData, BenchEnv } from './setup.js';

export type { HttpSpec } from './load.js';
export type { BenchEnv } from './setup.js';

/** What a scenario measures, once prepared. */
export interface Runs {
  /** The API requests, sent over loopback in turn (request i is api[i % api.length]). */
  api: HttpSpec | HttpSpec[];
  /**
   * The same work done directly on the database, as the app role (through inScope), without HTTP,
   * sessions or validation. Called with the operation's index; throws on a wrong answer.
   */
  sql: (i: number) => Promise<unknown>;
  /** Further in-process operations measured the same way, shown under the scenario (not in the ratio). */
  also?: { label: string; op: (i: number) => Promise<unknown> }[];
  /** One-line remarks printed under the scenario. */
  notes?: string[];
  /** Work the scenario started that must end before the next scenario (and before the server closes). */
  settle?: () => Promise<void>;
}

/**
 * One benchmark scenario: a file in bench/scenarios/ named `NN-name.ts` whose default export is
 * `defineScenario({...})`. The runner finds it there; nothing else needs to change.
 */
export interface Scenario {
  /** Short name, shown in the table and matched by BENCH_ONLY. */
  name: string;
  /** What is measured, one line. */
  title: string;
  /**
   * Optional data of the scenario's own, seeded as the owner with the data set (only when the scenario is
   * selected), so that the set-up's VACUUM ANALYZE covers it as autovacuum would on a live server.
   */
  seed?: (owner: Db, data: BenchData) => Promise<void>;
  /** Runs once before measuring: sign in, look things up, check the API and SQL agree. */
  prepare(env: BenchEnv): Promise<Runs>;
}

export const defineScenario = (s: Scenario): Scenario => s;

/** Throws unless `cond`; for scenarios' checks that the data and answers are what they expect. */
export function expectThat(cond: unknown, what: string): asserts cond {
  if (!cond) throw new Error(`bench check failed: ${what}`);
}
