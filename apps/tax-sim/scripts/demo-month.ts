/**
 * The demo agency's month on the simulated bureau (docs/tax-bureau-protocol.md, "The demo month"): the
 * roster (sbqc) of its 60 clients on a few dates of the November 2026 window, counted per state.
 * Run: npx tsx apps/tax-sim/scripts/demo-month.ts [YYYY-MM-DD ...]
 * The clients are the seed's (apps/server/src/db/seed/demo.ts: generateEnterprises(60, 20261)), with the
 * fixed scenario tax numbers of customer.seed.ts DEMO_BUREAU_MIX and two clients without a tax number.
 */
import { FILING_STATES, type FilingState } from '@dzy/shared';
import { generateEnterprises } from '../../server/src/db/seed/demo-data.js';
import { bookOf, roster } from '../src/filing.js';
import { defaultFlavour, makeTaxpayer, SCENARIO_TAXPAYERS, SCENARIOS, type Scenario } from '../src/taxpayers.js';

/** customer.seed.ts DEMO_BUREAU_MIX: client index → scenario tax number. */
const MIX: Readonly<Record<number, Scenario>> = {
  1: 'unfiled',
  2: 'arrears',
  7: 'mismatch',
  8: 'sms',
  13: 'personalLocked',
  14: 'deregistered',
  19: 'busy',
  20: 'noAssociation',
  31: 'personalWrong',
};
/** customer.seed.ts: the 5th and 6th clients have no tax number. */
const NO_TAX_NUMBER = new Set([4, 5]);

const clients = generateEnterprises(60, 20261).flatMap((e, i) => {
  if (NO_TAX_NUMBER.has(i)) return [];
  const scenario = MIX[i];
  const qysh = scenario ? (SCENARIO_TAXPAYERS.find((s) => s.scenario === scenario)?.qysh ?? e.qysh) : e.qysh;
  const behaviour = scenario ? SCENARIOS[scenario] : { ...SCENARIOS.clean, flavour: defaultFlavour(qysh) };
  return [{ qysh, qymc: e.qymc, behaviour }];
});

const dates = process.argv.slice(2).length ? process.argv.slice(2) : ['2026-11-05', '2026-11-25', '2026-12-03'];
for (const today of dates) {
  const month = today.slice(0, 7);
  const cells = Object.fromEntries(FILING_STATES.map((s) => [s, 0])) as Record<FilingState, number>;
  const earlier = Object.fromEntries(FILING_STATES.map((s) => [s, 0])) as Record<FilingState, number>;
  const clientsWith = Object.fromEntries(FILING_STATES.map((s) => [s, 0])) as Record<FilingState, number>;
  let overdueFromEarlier = 0;
  let nothingDue = 0;
  const t0 = performance.now();
  for (const c of clients) {
    const t = makeTaxpayer(c.qysh, c.behaviour, c.qymc);
    const r = roster(bookOf(t, today), month);
    const own = r.items.slice(0, r.registrations.length);
    const rest = r.items.slice(r.registrations.length);
    for (const it of own) cells[it.state]++;
    for (const it of rest) earlier[it.state]++;
    for (const s of FILING_STATES) if (own.some((it) => it.state === s)) clientsWith[s]++;
    if (rest.length > 0) overdueFromEarlier++;
    if (own.every((it) => it.state === 'wxsb')) nothingDue++;
  }
  const ms = performance.now() - t0;
  console.log(`${today} (filing month ${month}), ${clients.length} clients, ${ms.toFixed(1)} ms`);
  console.log(`  this month's items by state: ${JSON.stringify(cells)}`);
  console.log(`  clients with at least one item in state: ${JSON.stringify(clientsWith)}`);
  console.log(`  earlier returns still unfiled: ${JSON.stringify(earlier)} (${overdueFromEarlier} clients)`);
  console.log(`  clients with nothing due this month: ${nothingDue}`);
}
