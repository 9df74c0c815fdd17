// `npm start` after the build: the simulated e-tax bureau as a process of its own (unless TAX_BUREAU_URL
// names a bureau), then the server, on plain Node. Signals reach both; when the server ends, so does the
// simulator. The server reaches the bureau over HTTP only (docs/tax-bureau-protocol.md).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const children = [];

/** The port if it is free on loopback, else a free one the system picks. */
const portFree = (port) =>
  new Promise((ok) => {
    const srv = createServer();
    srv.once('error', () => ok(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => ok(true)));
  });
const anyPort = () =>
  new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.once('error', fail);
  });

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

const env = {};
if (!process.env.TAX_BUREAU_URL) {
  let port = Number(process.env.TAX_SIM_PORT ?? 8090);
  // The product's own port is not free for the bureau either, though nothing listens on it yet.
  if (port === Number(process.env.PORT ?? 8080) || !(await portFree(port))) {
    const taken = port;
    port = await anyPort();
    console.warn(`端口 ${taken} 已被占用，模拟电子税务局改用端口 ${port}`);
  }
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

let stopping = false;
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
