import { HELPER_CODE, HELPER_MSG, type HelperReply } from '@dzy/shared';
import { HelperFailure, ok } from './etax.service.js';

/**
 * Business-credit login (国家企业信用信息公示系统, tax-bureau.md §7 "POST /gsxt with func Login (and
 * /notice/report/home)"): the liaison's name and password are typed by the user on the page (the product
 * does not store them); the helper keeps the session per product origin and enterprise and reads the
 * annual-report home with it. The simulated bureau serves both at /gsxt/login and /gsxt/notice/report/home.
 */
export interface GsxtLoginData {
  status: 0 | 1;
  msg: string;
  qymc: string;
}
export interface GsxtReportHome {
  qysh: string;
  qymc: string;
  deadline: string;
  reports: { year: string; status: string }[];
}

const SESSION_KEEP_MS = 30 * 60_000;
const TIMEOUT_MS = 15_000;
/** The bureau's code for an ended session. */
const SESSION_EXPIRED = '10010';

export function gsxtService(bureauUrl: string) {
  const sessions = new Map<string, { session: string; at: number }>();
  const key = (origin: string, qysh: string) => `${origin}|${qysh}`;

  async function call(path: string, body: unknown): Promise<{ code: string; msg: string; data: unknown }> {
    try {
      const res = await fetch(new URL(path, bureauUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const reply = (await res.json()) as { code?: unknown; msg?: unknown; data?: unknown };
      return { code: String(reply.code ?? ''), msg: typeof reply.msg === 'string' ? reply.msg : '', data: reply.data };
    } catch {
      throw new HelperFailure(HELPER_CODE.unreachable, HELPER_MSG.e90000);
    }
  }
  const strip = (msg: string) => msg.replace(/\[[^\]]*\]/g, '').trim();

  return {
    async login(
      origin: string,
      input: { qysh: string; qymc: string; lxrxm: string; password: string },
    ): Promise<HelperReply<GsxtLoginData>> {
      const r = await call('/gsxt/login', input);
      if (r.code !== '10000')
        throw new HelperFailure(HELPER_CODE.busy, strip(r.msg) || '对不起，当前使用该功能的人数过多，请稍候再试');
      const inner = (r.data ?? {}) as { code?: unknown; msg?: unknown; session?: unknown; qymc?: unknown };
      if (String(inner.code) === '0' && typeof inner.session === 'string') {
        sessions.set(key(origin, input.qysh), { session: inner.session, at: Date.now() });
        return ok({ status: 1, msg: '登录成功', qymc: typeof inner.qymc === 'string' ? inner.qymc : input.qymc });
      }
      sessions.delete(key(origin, input.qysh));
      return ok({ status: 0, msg: strip(String(inner.msg ?? '')) || HELPER_MSG.loginFailed, qymc: input.qymc });
    },

    async reportHome(origin: string, qysh: string): Promise<HelperReply<GsxtReportHome>> {
      const k = key(origin, qysh);
      const s = sessions.get(k);
      if (!s || Date.now() - s.at > SESSION_KEEP_MS) {
        sessions.delete(k);
        throw new HelperFailure(HELPER_CODE.badRequest, '请先登录国家企业信用信息公示系统');
      }
      const r = await call('/gsxt/notice/report/home', { session: s.session });
      if (r.code === SESSION_EXPIRED) {
        sessions.delete(k);
        throw new HelperFailure(HELPER_CODE.badRequest, '请先登录国家企业信用信息公示系统');
      }
      if (r.code !== '10000') throw new HelperFailure(HELPER_CODE.busy, strip(r.msg) || HELPER_MSG.e90000);
      return ok(r.data as GsxtReportHome);
    },
  };
}
