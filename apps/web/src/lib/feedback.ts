import type { App, ModalFuncProps } from 'antd';

/**
 * Toasts and blocking dialogs for code outside React (the request client, timers).
 * The antd area of the app (app/antd-root.tsx) binds antd's context-aware instances while it is shown.
 * Before that, on the sign-in page, which loads without antd, the first toast or dialog loads antd's static
 * ones (lib/feedback-static.tsx, themed alike) and is shown when they arrive: only a page that has
 * something to say pays for antd.
 */
type AppApi = ReturnType<typeof App.useApp>;

export interface FeedbackApi {
  message: Pick<AppApi['message'], 'open'>;
  modal: { confirm: (props: ModalFuncProps) => unknown };
}

let bound: FeedbackApi | null = null;
let fallback: Promise<FeedbackApi> | null = null;

/** Binds the context-aware instances; returns the unbinding (for the effect that bound them). */
export function bindFeedback(api: FeedbackApi): () => void {
  bound = api;
  return () => {
    if (bound === api) bound = null;
  };
}

function withApi(use: (api: FeedbackApi) => void): void {
  if (bound) {
    use(bound);
    return;
  }
  fallback ??= import('./feedback-static').then((m) => m.staticFeedback);
  fallback.then(
    (api) => use(bound ?? api),
    () => {
      // antd's code could not be fetched (network gone): nothing to show it with; the page stays usable.
      fallback = null;
    },
  );
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
  withApi((api) => api.message.open({ type, content: text, duration: durationMs / 1000 }));
}

/** Opens a confirm dialog that can only be left through its OK button. */
export function blockingConfirm(options: { title: string; content: string; okText: string; onOk: () => void }): void {
  withApi((api) =>
    api.modal.confirm({
      title: options.title,
      content: options.content,
      okText: options.okText,
      okCancel: false,
      closable: false,
      keyboard: false,
      mask: { closable: false },
      centered: true,
      onOk: options.onOk,
    }),
  );
}
