import type { LearnAs } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import { LEARN_TIMEOUT_MS } from './rspamd-controller';

/**
 * A claim not finished by then is one whose process died mid-send (a send gives up after
 * LEARN_TIMEOUT_MS): another call may take it over rather than wait for ever.
 */
export const LEARN_CLAIM_STALE_MS = 6 * LEARN_TIMEOUT_MS;

export interface LearnClaim {
  messageId: string;
  userId: string;
  as: LearnAs;
  /** When this call claimed it: only this call's claim is finished or dropped with it. */
  claimedAt: number;
}

type LearnKey = Omit<LearnClaim, 'claimedAt'>;

const keyOf = (key: LearnKey) => ({ message_id: key.messageId, user_id: key.userId, learned_as: key.as });
/** The row of this learn, and only while it is this call's claim (not one taken over since). */
const rowOf = (claim: LearnClaim) => ({ ...keyOf(claim), claimed_at: claim.claimedAt });

export type ClaimOutcome =
  | { kind: 'claimed'; claim: LearnClaim }
  /** This user learned this message this way before (at `learnedAt`): not sent again. */
  | { kind: 'learned'; learnedAt: number }
  /** Another call of this user is sending this very learn now. */
  | { kind: 'in_progress' };

/**
 * Claims the send of this user's learn of this message as `as` (table learnings): one atomic
 * statement, so of two identical calls only one sends. A stale unfinished claim is taken over.
 */
export async function claimLearn(db: DbExecutor, key: LearnKey, now = Date.now()): Promise<ClaimOutcome> {
  const taken = await db
    .insertInto('learnings')
    .values({ ...keyOf(key), claimed_at: now, learned_at: null })
    .onConflict((oc) =>
      oc
        .columns(['message_id', 'user_id', 'learned_as'])
        .doUpdateSet({ claimed_at: now })
        .where('learnings.learned_at', 'is', null)
        .where('learnings.claimed_at', '<', now - LEARN_CLAIM_STALE_MS),
    )
    .returning('claimed_at')
    .executeTakeFirst();
  if (taken) return { kind: 'claimed', claim: { ...key, claimedAt: now } };
  const held = await db
    .selectFrom('learnings')
    .select('learned_at')
    .where((eb) => eb.and(keyOf(key)))
    .executeTakeFirst();
  // Gone in between: its send failed just now; this call answers as if it were still under way.
  return held?.learned_at != null ? { kind: 'learned', learnedAt: Number(held.learned_at) } : { kind: 'in_progress' };
}

/** The learn was sent and accepted: the claim becomes the record of it. */
export async function finishLearn(db: DbExecutor, claim: LearnClaim, learnedAt: number): Promise<void> {
  await db
    .updateTable('learnings')
    .set({ learned_at: learnedAt })
    .where((eb) => eb.and(rowOf(claim)))
    .execute();
}

/** The learn was not sent or failed: the claim goes, so a later call may send it. */
export async function dropLearn(db: DbExecutor, claim: LearnClaim): Promise<void> {
  await db
    .deleteFrom('learnings')
    .where((eb) => eb.and(rowOf(claim)))
    .where('learned_at', 'is', null)
    .execute();
}
