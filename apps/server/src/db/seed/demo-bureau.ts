/**
 * What the platform knows of the simulated bureau for its demo data, as an agency knows a test
 * bureau's published test taxpayers (like a card network's test card numbers): the tax numbers that
 * behave in a fixed way and the passwords the demo clients hold. The platform owns this copy; the
 * simulator (apps/tax-sim, docs/tax-bureau-protocol.md) serves the same over HTTP at /admin/scenarios,
 * and bureau-demo.test.ts checks the two agree. The server never imports the simulator.
 */
export const DEMO_SCENARIO_TAXPAYERS = {
  clean: '91330108MA2DY7001U',
  unfiled: '91330108MA2DY7002Y',
  arrears: '91330108MA2DY70032',
  mismatch: '91330108MA2DY70045',
  sms: '91330108MA2DY70058',
  busy: '91330108MA2DY7006B',
  noAssociation: '91330108MA2DY7007E',
  unconfirmed: '91330108MA2DY7008H',
  codeMismatch: '91330108MA2DY7009L',
  notRegistered: '91330108MA2DY7010R',
  accountError: '91330108MA2DY7011W',
  personalWrong: '91330108MA2DY70120',
  personalNotSet: '91330108MA2DY70133',
  personalLocked: '91330108MA2DY70146',
  personalTemporary: '91330108MA2DY70159',
  deregistered: '91330108MA2DY7016C',
} as const;
export type DemoScenario = keyof typeof DEMO_SCENARIO_TAXPAYERS;

/** The e-tax password the 'mismatch' taxpayer accepts (every other one accepts any non-empty password). */
export const DEMO_ETAX_PASSWORD = 'Etax@2026';
/** Likewise the personal-tax password of a 'personalWrong' taxpayer. */
export const DEMO_PERSONAL_PASSWORD = 'Gs@2026';
