import type { TransactionOutcome } from '@qc/contracts';

/** What outcome reading needs of a line. */
export interface OutcomeLine {
  uuid: string | null;
  origin: string | null;
  message: string;
}

// Strength of a clue: a stronger one wins; among equals, the later line.
const RANK = { disconnect: 1, rcpt: 2, decision: 3, plugin_ok: 4, ours: 5 } as const;

const OURS = /qconsole/i;
const HOOK = /\bhook=(\w+)\b.*\bplugin=(\S+).*\bretval=(\w+)/;
const QUEUE = /^\s*queue\b.*\bcode=(\w+)/;
const DISCONNECT = /^\s*disconnect\b.*\btxns=(\d+)\b.*\bmsgs=(\d+)\/(\d+)\/(\d+)/;
/** The e-mail id in haraka-plugin-qconsole's "quarantined (...) for ... as <id>: HTTP 201". */
const QUARANTINED_AS = /^\s*quarantined \(.*\bas ([0-9A-HJKMNP-TV-Z]{26})\b/;

/** Haraka's return code → what it did to the mail (null: not a decision). */
function byCode(code: string): TransactionOutcome | null {
  if (code === 'OK') return 'queued';
  if (code.startsWith('DENYSOFT')) return 'deferred';
  if (code.startsWith('DENY')) return 'rejected';
  return null;
}

/**
 * A transaction's outcome from its lines (oldest first): haraka-plugin-qconsole's own lines
 * ("quarantined (…) as <id>", "discarded (…)", "rejected by …", "deferred …", greylisting), then
 * Haraka's `[core] queue code=OK|DENY*|DENYSOFT*` and the DENY* of a data hook, then a recipient's
 * DENY (no recipient left), then the disconnect line's msgs=accepted/tempfail/reject of a
 * connection of one transaction. `hook=queue plugin=qconsole … retval=OK` without a discard line:
 * quarantined (the plugin answered for the mail).
 */
export function transactionOutcome(lines: OutcomeLine[], connectionLines: OutcomeLine[] = []): TransactionOutcome {
  let best: { rank: number; outcome: TransactionOutcome } = { rank: 0, outcome: 'unknown' };
  const consider = (rank: number, outcome: TransactionOutcome | null) => {
    if (outcome && rank >= best.rank) best = { rank, outcome };
  };
  for (const { origin, message } of lines) {
    const ours = OURS.test(origin ?? '');
    if (ours) {
      if (/^\s*quarantined \(/.test(message)) consider(RANK.ours, 'quarantined');
      else if (/^\s*discarded \(/.test(message)) consider(RANK.ours, 'discarded');
      else if (/^\s*rejected by /.test(message)) consider(RANK.ours, 'rejected');
      else if (/^\s*(deferred[ :]|greylisted by .*: deferred)/.test(message)) consider(RANK.ours, 'deferred');
    }
    const hook = HOOK.exec(message);
    if (hook) {
      const [, name, plugin, retval] = hook as unknown as [string, string, string, string];
      const outcome = byCode(retval);
      if (name === 'queue' && OURS.test(plugin) && outcome === 'queued') consider(RANK.plugin_ok, 'quarantined');
      else if (/^rcpt/.test(name)) consider(RANK.rcpt, outcome === 'queued' ? null : outcome);
      else if (/^(data|data_post|queue|queue_outbound)$/.test(name)) consider(RANK.decision, outcome);
      continue;
    }
    const queue = QUEUE.exec(message);
    if (queue && (origin ?? 'core') === 'core') consider(RANK.decision, byCode(queue[1]!));
  }
  if (best.rank === 0) {
    for (const { message } of [...lines, ...connectionLines]) {
      const d = DISCONNECT.exec(message);
      if (!d || d[1] !== '1') continue;
      const [accepted, tempfail, rejected] = [Number(d[2]), Number(d[3]), Number(d[4])];
      consider(RANK.disconnect, accepted ? 'queued' : tempfail ? 'deferred' : rejected ? 'rejected' : null);
    }
  }
  return best.outcome;
}

/** The e-mail ids haraka-plugin-qconsole logged for a transaction ("… as <id>"), newest last. */
export function loggedEmailIds(lines: OutcomeLine[]): string[] {
  const ids: string[] = [];
  for (const { origin, message } of lines) {
    const m = OURS.test(origin ?? '') ? QUARANTINED_AS.exec(message) : null;
    if (m) ids.push(m[1]!);
  }
  return ids;
}
