import { stripSpaces } from '@dzy/shared';
import { ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** `%text%` for ILIKE, with the pattern characters escaped: the text is searched as typed. */
export const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Every search box that takes "企业名称或税号": the name as typed, the tax number without the spaces
 * people paste into it (ILIKE already ignores case; full-width letters and digits were made half-width
 * when the body came in, plugins/calls.ts). Undefined for an empty search.
 */
export function nameOrTaxNumber(name: AnyPgColumn, taxNumber: AnyPgColumn, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  const compact = stripSpaces(text);
  return or(ilike(name, likeTerm(text)), compact ? ilike(taxNumber, likeTerm(compact)) : undefined);
}
