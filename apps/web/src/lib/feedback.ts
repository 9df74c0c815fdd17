import { type App, Modal, type ModalFuncProps, message } from 'antd';

/**
 * Toasts and blocking dialogs for code outside React (the request client, timers).
 * The app binds antd's context-aware instances at start; the static ones are the fallback.
 */
type AppApi = ReturnType<typeof App.useApp>;

let messageApi: Pick<AppApi['message'], 'open'> = message;
let modalApi: { confirm: (props: ModalFuncProps) => unknown } = Modal;

export function bindFeedback(api: Pick<AppApi, 'message' | 'modal'>): void {
  messageApi = api.message;
  modalApi = api.modal;
}

export type ToastType = 'success' | 'info' | 'warning' | 'error';

/** Display times: ordinary toasts 3 s, error toasts 5 s (foundation.md §8). */
export const TOAST_MS = 3000;
export const ERROR_TOAST_MS = 5000;

const shownUntil = new Map<string, number>();

/** Shows a toast unless the same text is still on screen. */
export function toast(type: ToastType, text: string, durationMs = type === 'error' ? ERROR_TOAST_MS : TOAST_MS): void {
  const now = Date.now();
  const until = shownUntil.get(text);
  if (until !== undefined && until > now) return;
  shownUntil.set(text, now + durationMs);
  for (const [key, value] of shownUntil) if (value <= now) shownUntil.delete(key);
  messageApi.open({ type, content: text, duration: durationMs / 1000 });
}

/** Opens a confirm dialog that can only be left through its OK button. */
export function blockingConfirm(options: { title: string; content: string; okText: string; onOk: () => void }): void {
  modalApi.confirm({
    title: options.title,
    content: options.content,
    okText: options.okText,
    okCancel: false,
    closable: false,
    keyboard: false,
    mask: { closable: false },
    centered: true,
    onOk: options.onOk,
  });
}
