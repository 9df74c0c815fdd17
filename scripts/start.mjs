// `npm start` after the build: the simulated e-tax bureau as a process of its own (unless TAX_BUREAU_URL
// names a bureau), then the server, on plain Node. Signals reach both; when the server ends, so does the
// simulator. The server reaches the bureau over HTTP only (docs/tax-bureau-protocol.md).
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planPorts } from './start-ports.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const children = [];
let stopping = false;

function run(script, env) {
  const child = spawn(process.execPath, ['--enable-source-maps', resolve(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  children.push(child);
  return child;
}

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (Date.now() > until) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// PORT taken, or the same as TAX_SIM_PORT: say so before starting anything (not EADDRINUSE from the server).
const plan = await planPorts(process.env);
if (plan.error) {
  console.error(`\n${plan.error}\n`);
  process.exit(1);
}
const env = {};
if (plan.simPort !== null) {
  const port = plan.simPort;
  if (plan.note) console.warn(plan.note);
  const sim = run('apps/tax-sim/build/main.mjs', { TAX_SIM_PORT: String(port), TAX_SIM_QUIET: '1' });
  sim.once('exit', (code) => {
    if (!stopping) {
      console.error(`模拟电子税务局已退出（${code}）`);
      stop('SIGTERM');
    }
  });
  await waitFor(`http://127.0.0.1:${port}/admin/scenarios`, 30_000);
  Object.assign(env, { TAX_BUREAU_URL: `http://127.0.0.1:${port}`, DZY_SIMULATED_BUREAU: '1' });
}
const server = run('apps/server/build/main.mjs', env);

function stop(signal) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill(signal);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.once('exit', (code) => {
  stop('SIGTERM');
  process.exitCode = code ?? 1;
});
