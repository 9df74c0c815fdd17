import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * The tests' requests stand for the product's page, and a browser sends Sec-Fetch-Site with every request
 * (and Origin with every POST): a cookie-carrying state change without either is refused
 * (plugins/security.ts). So app.inject adds `sec-fetch-site: same-origin` to a request with a cookie that
 * names neither; a test that means to leave both out says `'sec-fetch-site': undefined`.
 */
export function injectAsBrowser(app: FastifyInstance) {
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => ReturnType<FastifyInstance['inject']>;
  const asBrowser = (opts: InjectOptions): InjectOptions => {
    const given = Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const);
    const names = new Set(given.map(([k]) => k));
    const headers = Object.fromEntries(given.filter(([, v]) => v !== undefined));
    const cookie = names.has('cookie') || opts.cookies !== undefined;
    if (cookie && !names.has('origin') && !names.has('sec-fetch-site')) headers['sec-fetch-site'] = 'same-origin';
    return { ...opts, headers };
  };
  Object.assign(app, {
    inject: (opts: InjectOptions | string) => inject(typeof opts === 'string' ? opts : asBrowser(opts)),
  });
}
