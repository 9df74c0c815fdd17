import { customerListCall } from '@dzy/shared';
import { defineScenario } from '../scenario.js';
import { listRuns } from './customer-bench.js';

// The same list at page 500 (offset 9,980, the deepest a jump from the start reaches): the ids come from an
// index-only walk, so it should cost about what page 1 does.
export default defineScenario({
  name: 'customer list page 500',
  title: `POST /api/${customerListCall.path} pageNo 500 | SQL: the same at offset 9,980`,
  prepare: (env) => listRuns(env, 500),
});
