import type { MenuNode } from '@dzy/shared';
import { useNavigate } from 'react-router';
import { BrandMark } from '../../components/brand-logo';
import { menuIcon } from './menu-icons';
import { firstPage } from './nav';

/**
 * The 80 px navigation bar of the left layout (topMenuSetting 1): one entry per top menu, icon over
 * title; its pages show in the 200 px sidebar beside it.
 */
export function NavBar({ tree, active, logo }: { tree: MenuNode[]; active: string | null; logo: boolean }) {
  const navigate = useNavigate();
  return (
    <nav className="dzy-navbar" aria-label="主导航">
      {logo && (
        <div className="dzy-navbar-logo">
          <BrandMark size={34} />
        </div>
      )}
      {tree.map((node) => {
        const target = firstPage(node);
        return (
          <button
            key={node.path}
            type="button"
            className={node.path === active ? 'dzy-navbar-item dzy-navbar-item-active' : 'dzy-navbar-item'}
            aria-current={node.path === active ? 'page' : undefined}
            onClick={() => target && navigate(target)}
          >
            <span className="dzy-navbar-icon">{menuIcon(node.icon, true)}</span>
            <span className="dzy-navbar-title">{node.title}</span>
          </button>
        );
      })}
    </nav>
  );
}
