import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';

/** Top of every route: scrolls to the top on each navigation (foundation.md §2). */
export function RootLayout() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is the reaction to a new pathname
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);
  return <Outlet />;
}
