import { type ContentItem, contentKindName } from '@dzy/shared';

export const CONTENT_KEYS = { all: ['content'] as const };

/** 12:05 style length of a video; '' when unknown. */
export function durationText(sec: number): string {
  if (!sec) return '';
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A link the browser's <video> can play itself (a file), not a page of another site. */
export const playableLink = (url: string) => /\.(mp4|webm)(\?.*)?$/i.test(url);

export const kindColor: Record<string, string> = { video: 'blue', lecture: 'purple', news: 'green' };

export const itemMeta = (i: Pick<ContentItem, 'kind' | 'category'>) => `${contentKindName(i.kind)} · ${i.category}`;

/** The day part of an ISO time, in China time. */
export const dayOf = (iso: string | null) =>
  iso ? new Date(new Date(iso).getTime() + 8 * 3_600_000).toISOString().slice(0, 10) : '';

/** An upload's reply: the stored name and its URL. */
export interface Uploaded {
  file: string;
  url: string;
  size: number;
}

/**
 * Uploads a video or cover (multipart field `file`) with progress; resolves the stored file, or rejects with
 * the server's Chinese message.
 */
export function uploadContentFile(file: File, kind: 'video' | 'cover', onProgress: (pct: number) => void) {
  return new Promise<Uploaded>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/content/upload?kind=${kind}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new Error('网络连接失败，请检查网络后重试'));
    xhr.onload = () => {
      let reply: { code: number; msg: string; data: Uploaded } | null = null;
      try {
        reply = JSON.parse(xhr.responseText);
      } catch {
        reply = null;
      }
      if (reply?.code === 200) resolve(reply.data);
      else if (xhr.status === 403 || reply?.code === 403) reject(new Error('登录超时，请重新登陆'));
      else reject(new Error(reply?.msg || '上传失败，请稍后重试'));
    };
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}
