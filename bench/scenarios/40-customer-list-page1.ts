import { customerListCall } from '@dzy/shared';
import { defineScenario } from '../scenario.js';
import { listRuns } from './customer-bench.js';

// 我的客户 as the bench administrator (20,000 enterprises in the agency, 50 other agencies): page 1.
export default defineScenario({
  name: 'customer list page 1',
  title: `POST /api/${customerListCall.path} pageNo 1 | SQL: the total, an index walk for the ids, then the rows`,
  prepare: (env) => listRuns(env, 1),
});
