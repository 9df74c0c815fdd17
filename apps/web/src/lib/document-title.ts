import { useEffect } from 'react';
import { useLayoutSettings } from './layout-settings';

/** Sets the browser tab title to "<title> - 代账云". */
export function useDocumentTitle(title: string | null | undefined): void {
  // The 动态标题 layout setting off: the tab always says 代账云.
  const { dynamicTitle } = useLayoutSettings();
  useEffect(() => {
    document.title = title && dynamicTitle ? `${title} - 代账云` : '代账云';
  }, [title, dynamicTitle]);
}
