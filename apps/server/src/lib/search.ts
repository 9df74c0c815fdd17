import { stripSpaces } from '@dzy/shared';
import { ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { enterprises } from '../db/schema/index.js';

/** `%text%` for ILIKE, with the pattern characters escaped: the text is searched as typed. */
export const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The shortest keyword a trigram index can answer: pg_trgm takes no trigram from a shorter run of
 * characters, so such a keyword scans either way and is cheaper tested on the agency's rows directly.
 */
const TRIGRAM_MIN = 3;

/**
 * Every search box that takes "企业名称或税号": the name as typed, the tax number without the spaces
 * people paste into it (ILIKE already ignores case; full-width letters and digits were made half-width
 * when the body came in, plugins/calls.ts). Undefined for an empty search.
 */
export function nameOrTaxNumber(name: AnyPgColumn, taxNumber: AnyPgColumn, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  if (name === enterprises.qymc && taxNumber === enterprises.qysh) return clientKeyword(text);
  const compact = stripSpaces(text);
  return or(ilike(name, likeTerm(text)), compact ? ilike(taxNumber, likeTerm(compact)) : undefined);
}

/**
 * A client (`enterprises`) by name or tax number. From three characters on through enterprise_search()
 * (migration 0045): the tenant filter written out so the trigram indexes serve under row-level security,
 * ids only, joined back here where the policies still decide what the caller may see.
 */
export function clientKeyword(text: string): SQL | undefined {
  if (!text) return undefined;
  const compact = stripSpaces(text);
  if (text.length < TRIGRAM_MIN && compact.length < TRIGRAM_MIN) {
    return or(
      ilike(enterprises.qymc, likeTerm(text)),
      compact ? ilike(enterprises.qysh, likeTerm(compact)) : undefined,
    );
  }
  return sql`${enterprises.id} in (select enterprise_search(${likeTerm(text)}, ${compact ? likeTerm(compact) : ''}))`;
}
