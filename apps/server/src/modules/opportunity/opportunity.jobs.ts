import { OPP_MSG, OPP_REMINDER_LABEL } from '@dzy/shared';
import { and, asc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { memberships, opportunities } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, enqueueForEveryAgency, type JobHandler, startDailyTimer } from '../../plugins/jobs.js';
import { addDays } from '../contract/contract-dates.js';
import { notifyEvent } from '../message/notify.js';
import { autoReleaseDaysOf, chinaDayStart, chinaTime } from './opportunity.repo.js';
import { moveOwner } from './opportunity.service.js';

export const OPP_DAILY_QUEUE = 'opp.daily';
/** Rows handled per transaction: a batch commits on its own, so a job cut short resumes where it was. */
const BATCH = 100;

/** Creates the day's opportunity job of every agency (the key holds the date: once per agency and day). */
export async function scheduleOpportunityJobs(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [{ queue: OPP_DAILY_QUEUE, key: 'opp-daily' }]);
}

export function startOpportunitySchedule(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'opportunity reminders and release', (date) => scheduleOpportunityJobs(deps, date));
}

/** The owner is still a member of the agency (a removed member's are released by the staff module). */
const ownerIsMember = sql`exists (select 1 from ${memberships} m where m.agency_id = ${opportunities.agencyId} and m.user_id = ${opportunities.ownerId})`;

/** China date of followed_at. */
const followedDay = sql`(${opportunities.followedAt} at time zone 'Asia/Shanghai')::date`;

/**
 * The day's work of one agency, in batches that each commit:
 * 1. automatic release — open opportunities not followed up for N full days go to the pool, the owner told;
 * 2. the warning — those that will be released tomorrow, told once per quiet spell (release_warned_on);
 * 3. follow-up reminders — appointments due by the end of the day, told once per appointment (reminded_for).
 * Every step selects only rows it has not done yet, so a rerun (or a resumed job) does nothing twice.
 */
export const opportunityDailyJob: JobHandler = {
  queue: OPP_DAILY_QUEUE,
  perAgencyCap: 1,
  workers: 1,
  leaseSeconds: 30,
  maxAttempts: 3,
  async run({ job, inTx, deps, setProgress }) {
    const agencyId = job.agencyId;
    const date = String(job.payload.date ?? chinaDate());
    const open = and(eq(opportunities.agencyId, agencyId), isNull(opportunities.convertedAt)) as SQL;
    const days = await inTx((tx) => autoReleaseDaysOf(tx, agencyId));
    const counts = { released: 0, warned: 0, reminded: 0 };

    /** Runs `pick` (one committed batch each time) until a batch comes back short. */
    const batches = async (pick: (tx: Tx, defer: (f: () => Promise<void>) => void) => Promise<number>) => {
      for (;;) {
        // Pushes of a batch's messages go out once the batch has committed.
        const after: (() => Promise<void>)[] = [];
        const n = await inTx((tx) => pick(tx, (f) => void after.push(f)));
        for (const fn of after) await fn();
        if (n < BATCH) return;
        await setProgress({ ...counts, date });
      }
    };

    if (days > 0) {
      await batches(async (tx, defer) => {
        const rows = await tx
          .select({ id: opportunities.id, ownerId: opportunities.ownerId, companyName: opportunities.companyName })
          .from(opportunities)
          .where(and(open, isNotNull(opportunities.ownerId), sql`${followedDay} <= ${addDays(date, -days)}::date`))
          .orderBy(asc(opportunities.id))
          .limit(BATCH)
          .for('update', { skipLocked: true });
        await moveOwner(tx, agencyId, rows, null, 'auto', null, `${days}天未跟进`);
        for (const r of rows) {
          if (r.ownerId === null) continue;
          await notifyEvent(tx, deps.push, defer, {
            event: 'reminder',
            label: OPP_REMINDER_LABEL,
            msgStyleSmall: 'opportunity',
            agencyId,
            userIds: [r.ownerId],
            targetId: r.id,
            detail: OPP_MSG.autoReleased(r.companyName, days),
          });
        }
        counts.released += rows.length;
        return rows.length;
      });
      await batches(async (tx, defer) => {
        const rows = await tx
          .select({ id: opportunities.id, ownerId: opportunities.ownerId, companyName: opportunities.companyName })
          .from(opportunities)
          .where(
            and(
              open,
              isNotNull(opportunities.ownerId),
              ownerIsMember,
              sql`${followedDay} = ${addDays(date, 1 - days)}::date`,
              or(isNull(opportunities.releaseWarnedOn), sql`${opportunities.releaseWarnedOn} < ${followedDay}`),
            ),
          )
          .orderBy(asc(opportunities.id))
          .limit(BATCH)
          .for('update', { skipLocked: true });
        for (const r of rows) {
          if (r.ownerId === null) continue;
          await notifyEvent(tx, deps.push, defer, {
            event: 'reminder',
            label: OPP_REMINDER_LABEL,
            msgStyleSmall: 'opportunity',
            agencyId,
            userIds: [r.ownerId],
            targetId: r.id,
            detail: OPP_MSG.releaseSoon(r.companyName, days),
          });
        }
        if (rows.length) {
          await tx
            .update(opportunities)
            .set({ releaseWarnedOn: date })
            .where(
              inArray(
                opportunities.id,
                rows.map((r) => r.id),
              ),
            );
        }
        counts.warned += rows.length;
        return rows.length;
      });
    }
    const dayEnd = chinaDayStart(addDays(date, 1)).toISOString();
    await batches(async (tx, defer) => {
      const rows = await tx
        .select({
          id: opportunities.id,
          ownerId: opportunities.ownerId,
          companyName: opportunities.companyName,
          contactName: opportunities.contactName,
          nextFollowAt: opportunities.nextFollowAt,
        })
        .from(opportunities)
        .where(
          and(
            open,
            isNotNull(opportunities.ownerId),
            ownerIsMember,
            sql`${opportunities.nextFollowAt} < ${dayEnd}::timestamptz`,
            or(
              isNull(opportunities.remindedFor),
              sql`${opportunities.remindedFor} is distinct from ${opportunities.nextFollowAt}`,
            ),
          ),
        )
        .orderBy(asc(opportunities.id))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      for (const r of rows) {
        if (r.ownerId === null || r.nextFollowAt === null) continue;
        await notifyEvent(tx, deps.push, defer, {
          event: 'reminder',
          label: OPP_REMINDER_LABEL,
          msgStyleSmall: 'opportunity',
          agencyId,
          userIds: [r.ownerId],
          targetId: r.id,
          detail: OPP_MSG.followDue(r.companyName, chinaTime(r.nextFollowAt), r.contactName),
        });
        await tx.update(opportunities).set({ remindedFor: r.nextFollowAt }).where(eq(opportunities.id, r.id));
      }
      counts.reminded += rows.length;
      return rows.length;
    });
    return { ...counts, date };
  },
};
