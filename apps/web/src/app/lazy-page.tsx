import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { PageSpin } from '../components/page-spin';

export type LazyPage = LazyExoticComponent<ComponentType>;

/** React.lazy for a module's named page export (the codebase uses named exports only). */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyPage {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

/** A lazy page inside its loading placeholder. */
export function Lazy({ page: Page, fullScreen = false }: { page: LazyPage; fullScreen?: boolean }) {
  return (
    <Suspense fallback={<PageSpin fullScreen={fullScreen} />}>
      <Page />
    </Suspense>
  );
}
