import type { DbExecutor } from '../../db/database';

/**
 * Claims a job (compare-and-set): the row's locked_until must be in the past, so of several replicas
 * trying at once exactly one gets it, for `ttlMs` (renew it while working). Returns whether it did.
 */
export async function claimJob(db: DbExecutor, name: string, owner: string, now: number, ttlMs: number) {
  await db
    .insertInto('job_locks')
    .values({ name, locked_until: 0, owner: null, started_at: null, finished_at: null, last_result: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('job_locks')
    .set({ locked_until: now + ttlMs, owner, started_at: now })
    .where('name', '=', name)
    .where('locked_until', '<', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends a claim still held by `owner`; false when it was lost (expired and taken by another). */
export async function renewJob(db: DbExecutor, name: string, owner: string, now: number, ttlMs: number) {
  const result = await db
    .updateTable('job_locks')
    .set({ locked_until: now + ttlMs })
    .where('name', '=', name)
    .where('owner', '=', owner)
    .where('locked_until', '>=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees a claim held by `owner` and records the run's outcome. */
export async function releaseJob(db: DbExecutor, name: string, owner: string, now: number, result: string) {
  await db
    .updateTable('job_locks')
    .set({ locked_until: 0, finished_at: now, last_result: result })
    .where('name', '=', name)
    .where('owner', '=', owner)
    .execute();
}

export async function findJobLock(db: DbExecutor, name: string) {
  return db.selectFrom('job_locks').selectAll().where('name', '=', name).executeTakeFirst();
}
