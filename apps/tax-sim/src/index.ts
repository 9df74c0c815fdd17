export type { FaultKind, FaultSpec, Faults, Times } from './faults.js';
export type { PaymentBehaviour } from './returns.js';
export {
  type SmsRecord,
  type SubmissionCounts,
  type SubmissionKind,
  startTaxSim,
  type TaxSim,
  type TaxSimOptions,
} from './server.js';
export {
  makeTaxpayer,
  REGISTERED_NAMES,
  SCENARIO_TAXPAYERS,
  SCENARIOS,
  type Scenario,
  SIM_ETAX_PASSWORD,
  SIM_PERSONAL_PASSWORD,
} from './taxpayers.js';
