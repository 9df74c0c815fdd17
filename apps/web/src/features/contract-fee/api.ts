import { type CallDef, feeOwnersCall, feeYuanGrouped } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../../lib/feedback';
import { call, showSessionExpired } from '../../lib/request';

/** Query keys of the fee feature; all start with 'contract-fee'. */
export const FEE_KEYS = {
  all: ['contract-fee'] as const,
  receivables: ['contract-fee', 'receivables'] as const,
  charges: ['contract-fee', 'charges'] as const,
  schedule: (id: number) => ['contract-fee', 'schedule', id] as const,
  owners: ['contract-fee', 'owners'] as const,
};

export function useFeeOwners() {
  return useQuery({ queryKey: FEE_KEYS.owners, queryFn: () => call(feeOwnersCall, {}), staleTime: 60_000 });
}

/** Yuan text as shown: ¥1,234.50. */
export const showYuan = (yuan: string) => `¥${feeYuanGrouped(yuan)}`;

/** Runs a call and reports success with a toast; answers whether it worked (failures are told by the client). */
export async function act<C extends CallDef>(def: C, body: Parameters<typeof call<C>>[1], done?: string) {
  try {
    const data = await call(def, body);
    if (done) toast('success', done);
    return { ok: true as const, data };
  } catch {
    return { ok: false as const, data: null };
  }
}

/** Saves the file a POST with a JSON body answers, under the name the server gives. */
export async function downloadPost(path: string, fallbackName: string, body: unknown): Promise<boolean> {
  try {
    const res = await fetch(`/api/${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      const reply = (await res.json().catch(() => null)) as { msg?: string } | null;
      if (res.status === 403) showSessionExpired();
      else toast('warning', reply?.msg || '导出失败，请稍后重试');
      return false;
    }
    const blob = await res.blob();
    const cd = res.headers.get('content-disposition') ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1];
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = star ? decodeURIComponent(star) : fallbackName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    return true;
  } catch {
    toast('error', '网络连接失败，请检查网络后重试');
    return false;
  }
}
