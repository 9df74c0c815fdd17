import { useEffect } from 'react';

/** Sets the browser tab title to "<title> - 代账云". */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} - 代账云` : '代账云';
  }, [title]);
}
