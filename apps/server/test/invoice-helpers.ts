import { randomUUID } from 'node:crypto';
import { allowedRates, usccCheckChar } from '@dzy/shared';

/** 餐饮服务: a code every taxpayer kind may issue (6% or 3%). */
export const CODE_CATERING = '3070401000000000000';
/** This month in China (the bureau's and the list's month). */
export const month = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 7);
/** A buyer's credit code with a valid check digit. */
export const buyerTaxNo = (() => {
  const first = '91330106MA2H3C0X1';
  return first + usccCheckChar(first);
})();

/** An issue form of one 餐饮 line for a client; its rate follows the client's taxpayer kind. */
export function issueForm(aeiId: number, nsrlx: '0' | '1', over: Record<string, unknown> = {}) {
  return {
    aeiId,
    requestId: randomUUID(),
    fplx: 'pp',
    buyer: { name: '杭州示例贸易有限公司', taxNo: ` ${buyerTaxNo.toLowerCase()} ` },
    priceInclTax: true,
    lines: [{ ssflbm: CODE_CATERING, spmc: '工作餐', je: '1060.00', slv: allowedRates(CODE_CATERING, nsrlx)[0] }],
    bz: '测试备注',
    ...over,
  };
}
