import type { z } from 'zod';
import type { PermKey } from './permissions.js';

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
  body: B;
  data: D;
}

export const defineCall = <B extends z.ZodType, D extends z.ZodType>(def: CallDef<B, D>) => def;

export type CallBody<C> = C extends CallDef<infer B, z.ZodType> ? z.input<B> : never;
export type CallData<C> = C extends CallDef<z.ZodType, infer D> ? z.output<D> : never;
