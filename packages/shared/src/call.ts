import type { z } from 'zod';
import { GRANTABLE_PERMS, type PermKey } from './permissions.js';

/**
 * Who may make a call: anyone, any signed-in user, or a holder of a permission from the registry.
 * Every call states one; the server refuses to boot on a call without it.
 */
export type Access = 'public' | 'signedIn' | PermKey;

/** One call of the API: the contract the server serves and the web client calls. */
export interface CallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  /** The spec's path, served at POST /api/<path>. */
  path: string;
  /** Chinese one-line summary, shown in the OpenAPI document. */
  summary: string;
  access: Access;
  /**
   * A call about the person making it (re-proving who they are, a code to their own phone) although a
   * permission guards it: never made by an API key, which is a program, not a person (keyMayCall).
   */
  person?: true;
  body: B;
  data: D;
  /**
   * Labels of this call's fields where the glossary's shared word is too general for its messages
   * (`source` is 来源 in the glossary, 商机来源 in an opportunity's form): a refused field is named so.
   */
  labels?: Readonly<Record<string, string>>;
}

const KEY_GRANTABLE = new Set<string>(GRANTABLE_PERMS);

/**
 * Whether an API key may make the call (issue 26 point 1): only calls guarded by a permission a key can be
 * given, and not about a person. Public and signed-in calls (sign-in, two-factor, third-party binding,
 * profile, password, phone, organisations, messages) and administrator- or operator-only ones never.
 */
export const keyMayCall = (def: Pick<CallDef, 'access' | 'person'>): boolean =>
  KEY_GRANTABLE.has(def.access) && def.person !== true;

export const defineCall = <B extends z.ZodType, D extends z.ZodType>(def: CallDef<B, D>) => def;

export type CallBody<C> = C extends CallDef<infer B, z.ZodType> ? z.input<B> : never;
export type CallData<C> = C extends CallDef<z.ZodType, infer D> ? z.output<D> : never;
