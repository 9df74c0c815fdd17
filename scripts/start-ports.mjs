// The ports `npm start` uses, checked before anything starts (issue 29 point 7): the product's PORT must be
// free, and the simulated e-tax bureau needs a port of its own. Messages in Chinese and English, since the
// person reading them is setting the product up.
import { createServer } from 'node:net';

/** Whether `port` can be listened on at `host`: true, or the error's code (EADDRINUSE, EACCES ...). */
export const portState = (port, host) =>
  new Promise((ok) => {
    const srv = createServer();
    srv.once('error', (err) => ok(err.code ?? 'ERROR'));
    srv.listen(port, host, () => srv.close(() => ok(true)));
  });

/** A port the system has free on loopback. */
export const anyPort = () =>
  new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.once('error', fail);
  });

const validPort = (n) => Number.isInteger(n) && n > 0 && n < 65536;

export const PORT_MSG = {
  bad: (name, v) => `${name}=${v} 不是有效的端口号（1-65535）。\n${name}=${v} is not a valid port number (1-65535).`,
  same: (port, other) =>
    `PORT 和 TAX_SIM_PORT 都是 ${port}：代账云和模拟电子税务局不能用同一个端口，请把其中一个换成别的端口，例如 PORT=${port} TAX_SIM_PORT=${other} npm start。\n` +
    `PORT and TAX_SIM_PORT are both ${port}: the product and the simulated e-tax bureau cannot share a port; give one of them another port, e.g. PORT=${port} TAX_SIM_PORT=${other} npm start.`,
  taken: (port, other) =>
    `端口 ${port} 已被其他程序占用，代账云无法启动：请关闭占用它的程序，或换一个端口启动，例如 PORT=${other} npm start。\n` +
    `Port ${port} is already in use by another program, so the product cannot start: stop that program, or start on another port, e.g. PORT=${other} npm start.`,
  denied: (port, other) =>
    `没有权限使用端口 ${port}（1024 以下的端口需要管理员权限），请换一个端口，例如 PORT=${other} npm start。\n` +
    `No permission to listen on port ${port} (ports below 1024 need administrator rights); use another one, e.g. PORT=${other} npm start.`,
  simMoved: (taken, port, why) =>
    `${why === 'product' ? `端口 ${taken} 是代账云自己的端口（PORT）` : `端口 ${taken} 已被占用`}，模拟电子税务局改用端口 ${port}。\n` +
    `${why === 'product' ? `Port ${taken} is the product's own port (PORT)` : `Port ${taken} is in use`}; the simulated e-tax bureau uses port ${port} instead.`,
};

/**
 * What `npm start` may do with this environment: `{ error }` to print before exiting with 1, or the
 * bureau's port (null when TAX_BUREAU_URL names a bureau) with a note to print when it moved.
 * `state` tells whether a port can be listened on (portState; replaced in tests).
 */
export async function planPorts(env, state = portState, free = anyPort) {
  const port = Number(env.PORT ?? 8080);
  if (!validPort(port)) return { error: PORT_MSG.bad('PORT', env.PORT) };
  const host = env.HOST ?? '127.0.0.1';
  const simGiven = !env.TAX_BUREAU_URL && env.TAX_SIM_PORT !== undefined && env.TAX_SIM_PORT !== '';
  const wanted = Number(simGiven ? env.TAX_SIM_PORT : 8090);
  if (simGiven && !validPort(wanted)) return { error: PORT_MSG.bad('TAX_SIM_PORT', env.TAX_SIM_PORT) };
  // Both set to one port is a mistake to point out, not to work around: the person chose both.
  if (simGiven && wanted === port) return { error: PORT_MSG.same(port, await free()) };
  const own = await state(port, host);
  if (own === 'EACCES') return { error: PORT_MSG.denied(port, await free()) };
  if (own !== true) return { error: PORT_MSG.taken(port, await free()) };
  if (env.TAX_BUREAU_URL) return { simPort: null, note: null };
  // The default bureau port yields to the product's own port and to another program.
  if (wanted === port) {
    const moved = await free();
    return { simPort: moved, note: PORT_MSG.simMoved(wanted, moved, 'product') };
  }
  if ((await state(wanted, '127.0.0.1')) !== true) {
    const moved = await free();
    return { simPort: moved, note: PORT_MSG.simMoved(wanted, moved, 'taken') };
  }
  return { simPort: wanted, note: null };
}
