import {
  type Arrear,
  arrearsCall,
  BureauError,
  type CreditScore,
  creditScoresCall,
  filedReturnsCall,
  type Payment,
  paymentsCall,
  type ResponsiblePerson,
  responsiblePersonsCall,
  type SocialInsuranceMonth,
  socialInsuranceCall,
  sumYuan,
  TAX_DATA_MSG,
  TAX_DATA_PAGE_SIZES,
  type TaxpayerInfo,
  type TaxRegistration,
  type TaxReturn,
  taxpayerInfoCall,
  unfiledReturnsCall,
} from '@dzy/shared';
import { mask } from '../../lib/crypto.js';
import { type Served, serveStaged } from '../../plugins/calls.js';
import { tabQuery } from './tax-data.service.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * 税务数据 /declare/sjcx: one call per tab. Served staged: a live query waits on the bureau outside
 * any transaction (the embedded database has one connection).
 */
export const taxDataCalls: Served[] = [
  serveStaged(taxpayerInfoCall, async ({ body, ...ctx }) => {
    const r = await tabQuery<{ info: TaxpayerInfo | null; sfzhd: TaxRegistration[] }>(ctx, body.aeiId, {
      tab: 'nsrxx',
      live: body.live,
      params: {},
      empty: { info: null, sfzhd: [] },
      fromCheck: (c) => ({ info: c.nsrjcxx, sfzhd: c.sfzhd }),
      run: async (s) => ({
        info: await ctx.deps.bureau.taxpayerInfo(s),
        sfzhd: await ctx.deps.bureau.registrations(s),
      }),
    });
    const { value, params: _p, ...head } = r;
    return { ...head, ...value };
  }),

  serveStaged(responsiblePersonsCall, async ({ body, ...ctx }) => {
    const r = await tabQuery<{ list: ResponsiblePerson[] }>(ctx, body.aeiId, {
      tab: 'fzr',
      live: body.live,
      params: {},
      empty: { list: [] },
      // ID numbers and phones are kept and shown masked: the page needs no more (tax-bureau.md §5).
      run: async (s) => ({
        list: (await ctx.deps.bureau.responsiblePersons(s))
          .slice(0, TAX_DATA_PAGE_SIZES.responsiblePersons)
          .map((p) => ({ ...p, zjhm: mask(p.zjhm), lxdh: mask(p.lxdh) })),
      }),
    });
    const { value, params: _p, ...head } = r;
    return { ...head, list: value.list };
  }),

  serveStaged(filedReturnsCall, async ({ body, ...ctx }) => {
    const params = { sbrqq: body.sbrqq ?? '', sbrqz: body.sbrqz ?? '' };
    const r = await tabQuery<{ list: TaxReturn[] }>(ctx, body.aeiId, {
      tab: 'ysb',
      live: body.live,
      params,
      empty: { list: [] },
      fromCheck: (c) => ({ list: c.cxsysbList }),
      run: async (s) => ({
        list: (await ctx.deps.bureau.filedReturns(s, { from: params.sbrqq, to: params.sbrqz })).slice(
          0,
          TAX_DATA_PAGE_SIZES.filed,
        ),
      }),
    });
    const { value, params: p, ...head } = r;
    return { ...head, list: value.list, sbrqq: str(p.sbrqq), sbrqz: str(p.sbrqz) };
  }),

  serveStaged(unfiledReturnsCall, async ({ body, ...ctx }) => {
    const r = await tabQuery<{ list: TaxReturn[] }>(ctx, body.aeiId, {
      tab: 'wsb',
      live: body.live,
      params: {},
      empty: { list: [] },
      fromCheck: (c) => ({ list: c.wsbList }),
      run: async (s) => ({
        list: (await ctx.deps.bureau.unfiledReturns(s)).slice(0, TAX_DATA_PAGE_SIZES.unfiled),
      }),
    });
    const { value, params: _p, ...head } = r;
    return { ...head, list: value.list };
  }),

  serveStaged(paymentsCall, async ({ body, ...ctx }) => {
    const params = { jkrqq: body.jkrqq ?? '', jkrqz: body.jkrqz ?? '' };
    const r = await tabQuery<{ list: Payment[] }>(ctx, body.aeiId, {
      tab: 'jk',
      live: body.live,
      params,
      empty: { list: [] },
      run: async (s) => ({ list: await ctx.deps.bureau.payments(s, { from: params.jkrqq, to: params.jkrqz }) }),
    });
    const { value, params: p, ...head } = r;
    return {
      ...head,
      list: value.list,
      hjje: sumYuan(value.list.map((x) => x.sjje)),
      jkrqq: str(p.jkrqq),
      jkrqz: str(p.jkrqz),
    };
  }),

  serveStaged(arrearsCall, async ({ body, ...ctx }) => {
    const r = await tabQuery<{ list: Arrear[] }>(ctx, body.aeiId, {
      tab: 'qs',
      live: body.live,
      params: {},
      empty: { list: [] },
      fromCheck: (c) => ({ list: c.qsxxList }),
      run: async (s) => ({ list: (await ctx.deps.bureau.arrears(s)).slice(0, TAX_DATA_PAGE_SIZES.arrearsDetail) }),
    });
    const { value, params: _p, ...head } = r;
    const qs = value.list.map((x) => x.qsje);
    const znj = value.list.map((x) => x.znj);
    return { ...head, list: value.list, qsjeHj: sumYuan(qs), znjHj: sumYuan(znj), hj: sumYuan([...qs, ...znj]) };
  }),

  serveStaged(socialInsuranceCall, async ({ body, ...ctx }) => {
    const params = { ssqq: body.ssqq ?? '', ssqz: body.ssqz ?? '' };
    const r = await tabQuery<{ list: SocialInsuranceMonth[] }>(ctx, body.aeiId, {
      tab: 'sb',
      live: body.live,
      params,
      empty: { list: [] },
      run: async (s) => {
        try {
          const to = lastDayOf(params.ssqz);
          return { list: await ctx.deps.bureau.socialInsurance(s, { from: `${params.ssqq}-01`, to }) };
        } catch (err) {
          // The spec answers an empty list when the unit social-insurance login fails (tax-bureau.md §8).
          if (err instanceof BureauError && err.message.includes(TAX_DATA_MSG.socialLoginFailed)) return { list: [] };
          throw err;
        }
      },
    });
    const { value, params: p, ...head } = r;
    return {
      ...head,
      list: value.list,
      dwjfjeHj: sumYuan(value.list.map((x) => x.dwjfje)),
      grjfjeHj: sumYuan(value.list.map((x) => x.grjfje)),
      ssqq: str(p.ssqq),
      ssqz: str(p.ssqz),
    };
  }),

  serveStaged(creditScoresCall, async ({ body, ...ctx }) => {
    const years = [...new Set(body.PjndList)].sort();
    const r = await tabQuery<{ list: CreditScore[] }>(ctx, body.aeiId, {
      tab: 'xy',
      live: body.live,
      params: { PjndList: years },
      empty: { list: [] },
      run: async (s) => ({
        list: (await ctx.deps.bureau.creditScores(s, years))
          .slice(0, TAX_DATA_PAGE_SIZES.creditScore)
          .sort((a, b) => b.pjnd.localeCompare(a.pjnd)),
      }),
    });
    const { value, params: p, ...head } = r;
    const stored = Array.isArray(p.PjndList) ? p.PjndList.filter((y): y is string => typeof y === 'string') : [];
    return { ...head, list: value.list, PjndList: stored };
  }),
];

/** "2024-02" → "2024-02-29": the last day of a month, by the calendar (UTC, no time zone drift). */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y ?? 1970, m ?? 1, 0)).getUTCDate();
  return `${month}-${String(d).padStart(2, '0')}`;
}
