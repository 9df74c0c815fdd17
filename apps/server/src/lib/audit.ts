import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';

/** Appends to the audit log: who, which tenant, what, when, from where. */
export async function audit(
  tx: Queryable,
  req: FastifyRequest,
  who: { agencyId: number | null; userId: number | null },
  action: string,
  target = '',
  detail: Record<string, unknown> = {},
) {
  await tx.insert(auditLog).values({ agencyId: who.agencyId, userId: who.userId, action, target, detail, ip: req.ip });
}
