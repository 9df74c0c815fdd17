import {
  agencyEquityCall,
  allocateUsersCall,
  type CallDef,
  CODE,
  getCompartmentInfoCall,
  gradeListCall,
  labelListCall,
  type Region,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../../lib/feedback';
import { call, showSessionExpired } from '../../lib/request';

/** Query keys of the customer feature; all start with 'customer'. */
export const CUSTOMER_KEYS = {
  all: ['customer'] as const,
  list: (params: unknown) => ['customer', 'list', params] as const,
  detail: (id: number) => ['customer', 'detail', id] as const,
  recycle: (params: unknown) => ['customer', 'recycle', params] as const,
  labels: ['customer', 'labels'] as const,
  grades: ['customer', 'grades'] as const,
  users: ['customer', 'users'] as const,
  equity: ['customer', 'equity'] as const,
  noQysh: ['customer', 'no-qysh'] as const,
  notes: (id: number) => ['customer', 'notes', id] as const,
  memory: (key: string) => ['customer', 'memory', key] as const,
};

export function useLabels() {
  return useQuery({ queryKey: CUSTOMER_KEYS.labels, queryFn: () => call(labelListCall, {}), staleTime: 60_000 });
}

export function useGrades() {
  return useQuery({ queryKey: CUSTOMER_KEYS.grades, queryFn: () => call(gradeListCall, {}), staleTime: 60_000 });
}

export function useAllocateUsers() {
  return useQuery({ queryKey: CUSTOMER_KEYS.users, queryFn: () => call(allocateUsersCall, {}), staleTime: 60_000 });
}

/** The agency's benefit status, its 不再提醒 flag and the feature table. */
export function useAgencyEquity() {
  return useQuery({ queryKey: CUSTOMER_KEYS.equity, queryFn: () => call(agencyEquityCall, {}), staleTime: 60_000 });
}

/** Regions of one level: provinces, or the children of a code. */
export async function loadRegions(dataType: 1 | 2 | 3, parentCode?: string): Promise<Region[]> {
  const r = await call(getCompartmentInfoCall, parentCode ? { dataType, parentCode } : { dataType });
  return r?.dataArray ?? [];
}

/** An envelope reply of a plain route (uploads). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/**
 * Posts a multipart upload (field `file`) to a plain route and answers its envelope; a failure is told
 * to the user and answers null.
 */
export async function uploadFile<T>(path: string, file: File): Promise<Envelope<T> | null> {
  const body = new FormData();
  body.append('file', file);
  try {
    const res = await fetch(`/api/${path}`, { method: 'POST', body, credentials: 'same-origin' });
    const reply = (await res.json().catch(() => null)) as Envelope<T> | null;
    if (res.status === 403 || reply?.code === CODE.SESSION_EXPIRED) {
      showSessionExpired();
      return null;
    }
    if (!reply) {
      toast('error', '上传失败，请稍后重试');
      return null;
    }
    if (reply.code !== CODE.OK) {
      toast('warning', reply.msg || '上传失败，请稍后重试');
      return null;
    }
    return reply;
  } catch {
    toast('error', '网络连接失败，请检查网络后重试');
    return null;
  }
}

/** Saves a file the server sends (GET, or POST with a JSON body), under the name it gives. */
export async function downloadFile(path: string, fallbackName: string, body?: unknown): Promise<boolean> {
  try {
    const res = await fetch(`/api/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      const reply = (await res.json().catch(() => null)) as Envelope<unknown> | null;
      if (res.status === 403) showSessionExpired();
      else toast('warning', reply?.msg || '下载失败，请稍后重试');
      return false;
    }
    const blob = await res.blob();
    const cd = res.headers.get('content-disposition') ?? '';
    const star = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1];
    const name = star ? decodeURIComponent(star) : fallbackName;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return true;
  } catch {
    toast('error', '网络连接失败，请检查网络后重试');
    return false;
  }
}

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
