import {
  ALL_PERMS,
  CODE,
  identitySwitchLabel,
  isUnlinkedFactory,
  LINKED_AGENCY_MSG,
  MORE_MENUS,
  moreMenuFor,
  needsLinkedAgency,
  provinceOf,
} from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { requireLinkedAgency } from '../src/modules/org/org.service.js';
import { regionChainValid, regionCounties, regionText } from '../src/modules/org/regions.js';
import type { SessionCtx } from '../src/plugins/session.js';

const unboundFactory = { orgType: 'kjgc', kjgcDlsId: null } as const;
const boundFactory = { orgType: 'kjgc', kjgcDlsId: 1 } as const;
const agency = { orgType: 'dls', kjgcDlsId: null } as const;

describe('needsLinkedAgency: a factory must be bound to an agency before /declare and /account', () => {
  it('refuses the declaration and account pages to an unbound factory', () => {
    for (const path of ['/declare', '/declare/bssz', '/declare/bssz-new', '/account', '/account/x?y=1']) {
      expect(needsLinkedAgency(unboundFactory, path), path).toBe(true);
    }
  });

  it('lets an unbound factory open every other page', () => {
    for (const path of ['/dashboard', '/customer', '/accounting', '/declarex', '/nested/kjgcgl/kjgcxx', '/']) {
      expect(needsLinkedAgency(unboundFactory, path), path).toBe(false);
    }
  });

  it('never refuses a bound factory, an agency or a user without an organisation', () => {
    for (const s of [
      boundFactory,
      agency,
      { orgType: 'kd', kjgcDlsId: null },
      { orgType: null, kjgcDlsId: null },
    ] as const) {
      expect(needsLinkedAgency(s, '/declare/bssz')).toBe(false);
      expect(needsLinkedAgency(s, '/account')).toBe(false);
    }
    expect(isUnlinkedFactory(unboundFactory)).toBe(true);
    expect(isUnlinkedFactory(boundFactory)).toBe(false);
  });

  it('the server helper refuses an unbound factory with 460 请先关联代理所', () => {
    const ctx = (s: Pick<SessionCtx, 'orgType' | 'kjgcDlsId'>) => s as SessionCtx;
    expect(() => requireLinkedAgency(ctx(boundFactory))).not.toThrow();
    expect(() => requireLinkedAgency(ctx(agency))).not.toThrow();
    try {
      requireLinkedAgency(ctx(unboundFactory));
      expect.unreachable('should refuse');
    } catch (e) {
      expect(e).toMatchObject({ code: CODE.NO_PERMISSION, message: LINKED_AGENCY_MSG });
    }
  });
});

describe('moreMenuFor: the more menu by permission and region (foundation.md §6)', () => {
  const keys = (perms: string[], sssf: string | null) => moreMenuFor(perms, sssf).map((m) => m.key);

  it('keeps the spec ids of the more-menu entries', () => {
    expect(MORE_MENUS.map((m) => [m.id, m.key])).toEqual([
      [7, 'wxwork'],
      [8, 'managModule'],
      [215, 'boss'],
      [303, 'moreModuleCloudInvoice'],
      [301, 'czc'],
    ]);
  });

  it('an administrator in Zhejiang sees chat, management and service, but neither invoices nor storage', () => {
    expect(keys([ALL_PERMS], '330000')).toEqual(['wxwork', 'managModule', 'boss']);
  });

  it('in Hebei (130000) invoices and finance storage appear', () => {
    expect(keys([ALL_PERMS], '130000')).toEqual(['wxwork', 'managModule', 'boss', 'moreModuleCloudInvoice', 'czc']);
  });

  it('in Heilongjiang (230000) enterprise chat is hidden and finance storage shown, invoices not', () => {
    expect(keys([ALL_PERMS], '230000')).toEqual(['managModule', 'boss', 'czc']);
  });

  it('accepts the region as a 2-digit, province, city or district code', () => {
    for (const code of ['13', '130000', '130100', '130102']) {
      expect(keys([ALL_PERMS], code), code).toContain('moreModuleCloudInvoice');
    }
    expect(provinceOf('230104')).toBe('230000');
    expect(provinceOf('')).toBe('');
    expect(provinceOf(null)).toBe('');
  });

  it('without a region the region-limited entries are hidden and the others shown', () => {
    expect(keys([ALL_PERMS], null)).toEqual(['wxwork', 'managModule', 'boss']);
  });

  it('shows only what the permissions hold', () => {
    expect(keys([], '130000')).toEqual([]);
    expect(keys(['invoice:output:view', 'wxwork:chat:view'], '130000')).toEqual(['wxwork', 'moreModuleCloudInvoice']);
    expect(keys(['invoice:output:view', 'wxwork:chat:view'], '230000')).toEqual([]);
  });
});

describe('identity switch label and regions', () => {
  it('offers the other end', () => {
    expect(identitySwitchLabel('kjgc')).toBe('代理机构端');
    expect(identitySwitchLabel('dls')).toBe('会计工厂端');
    expect(identitySwitchLabel('kd')).toBe('会计工厂端');
  });

  it('checks that province, city and district form one chain', () => {
    expect(regionChainValid('330000', '330100', '330106')).toBe('ok');
    expect(regionChainValid('330000', '440300', '440305')).toBe('city');
    expect(regionChainValid('330000', '330100', '440305')).toBe('county');
    expect(regionText('330000', '330100', '330106')).toBe('浙江省 杭州市 西湖区');
  });

  it('a city without districts stands as its own district', () => {
    expect(regionCounties('441900')).toEqual([{ code: '441900', name: '东莞市' }]);
    expect(regionChainValid('440000', '441900', '441900')).toBe('ok');
    expect(regionText('440000', '441900', '441900')).toBe('广东省 东莞市');
  });
});
