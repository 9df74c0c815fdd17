import { startTaxSim } from './server.js';
import { SCENARIO_TAXPAYERS, SIM_ETAX_PASSWORD } from './taxpayers.js';

// Runs the simulated e-tax bureau alone: npm start -w @dzy/tax-sim (docs/tax-bureau-protocol.md).
const sim = await startTaxSim({
  host: process.env.TAX_SIM_HOST ?? '127.0.0.1',
  port: Number(process.env.TAX_SIM_PORT ?? 8090),
  latencyMs: Number(process.env.TAX_SIM_LATENCY_MS ?? 0),
});
console.log(`模拟电子税务局已启动：${sim.url}`);
// Started by `npm start` (TAX_SIM_QUIET=1) the server prints where to find these; alone, list them here.
if (process.env.TAX_SIM_QUIET !== '1') {
  console.log(`  任意税号、任意非空密码可登录；以下税号有固定场景（'mismatch' 只认密码 ${SIM_ETAX_PASSWORD}）：`);
  for (const t of SCENARIO_TAXPAYERS) console.log(`  ${t.qysh}  ${t.scenario}`);
}

const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
