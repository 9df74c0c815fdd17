import { useState } from 'react';

/**
 * True from the first time `open` is true: a dialog loaded on first use (React.lazy) mounts then and stays
 * mounted, so it still closes with its animation and keeps its state as an always-mounted one did.
 */
export function useOnceOpened(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
