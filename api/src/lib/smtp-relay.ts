import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import { Readable } from 'node:stream';

/**
 * What came of handing one message to the relay:
 * - sent: the relay took it (for `accepted`; `rejected` recipients were refused at RCPT, `tooMany`
 *   of them with 452: a limit of this transaction, RFC 5321 4.5.3.1.10, not a refusal of the address);
 * - refused: the relay answered 4xx/5xx (to the envelope or to the data): not delivered;
 * - unreachable: no answer before the data was sent (connect, greeting, timeout): not delivered;
 *   `connected` says whether the relay had greeted us (false: it is down, or not reachable at all);
 * - unknown: the connection was lost while or after the data was sent, without a final answer —
 *   the relay may or may not have queued it.
 */
export type RelayResult =
  | { outcome: 'sent'; response: string; accepted: string[]; rejected: string[]; tooMany: string[] }
  | { outcome: 'refused'; response: string | null; accepted: string[]; rejected: string[] }
  | { outcome: 'unreachable'; response: string | null; error: string; connected: boolean }
  /** `timedOut`: the relay took the message and then went silent past a timeout (vs. a dropped connection). */
  | { outcome: 'unknown'; response: string | null; error: string; timedOut: boolean };

export interface RelayTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  /** Inactivity on the socket, at any point. */
  socketTimeout: number;
  /**
   * The whole exchange. A relay that trickles a byte now and then never trips socketTimeout; past
   * this, the outcome is settled (unknown once the data went out) so the release is no longer
   * "under way", and nobody can resend it while this attempt might still deliver.
   */
  totalTimeout: number;
}

export const DEFAULT_RELAY_TIMEOUTS: RelayTimeouts = {
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 120_000,
  // Well under RELEASE_STALE_MS (10 min), after which a claim may be taken over with confirmation.
  totalTimeout: 5 * 60_000,
};

interface SmtpError extends Error {
  response?: string;
  responseCode?: number;
  code?: string;
  recipient?: string;
}

/** Errors nodemailer raises itself, before sending, when the relay's rules forbid the message. */
const LOCAL_REFUSALS = new Set(['EMESSAGE', 'EENVELOPE']);

/** Why an attempt stopped by its `signal` (the api shutting down) gave up: nothing was sent. */
export const STOPPED_BEFORE_DATA = 'stopped before the data was sent: the api is shutting down';

/**
 * Sends `raw` as is (no re-encoding: the relay gets these bytes, dot-stuffed on the wire) with the
 * given envelope to the relay named by an smtp:// or smtps:// URL (credentials in the URL are used
 * for AUTH). Never throws: every failure is classified, and which phase it happened in decides
 * between "not delivered" and "unknown" — the message stream is only read once the relay has
 * answered DATA with 354. `signal` aborted before then gives up at once (unreachable: nothing
 * sent); once the data is under way the relay's answer is still waited for, as it decides.
 */
export function relayRaw(
  url: string,
  envelope: { from: string; to: string[] },
  raw: Buffer,
  timeouts: RelayTimeouts = DEFAULT_RELAY_TIMEOUTS,
  signal?: AbortSignal,
): Promise<RelayResult> {
  const { auth, ...options } = parseConnectionUrl(url) as ReturnType<typeof parseConnectionUrl> & {
    auth?: { user?: string; pass?: string };
  };
  let dataStarted = false;
  let connected = false;
  const message = new Readable({
    read() {
      dataStarted = true;
      this.push(raw);
      this.push(null);
    },
  });

  const { totalTimeout, ...socketTimeouts } = timeouts;
  return new Promise((resolve) => {
    let connection: SMTPConnection;
    let settled = false;
    const finish = (result: RelayResult, quit: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', stop);
      try {
        if (quit) connection.quit();
        else connection.close();
      } catch {
        // already closed
      }
      resolve(result);
    };
    const fail = (err: SmtpError) => {
      const response = err.response ?? null;
      // nodemailer's own refusals before sending (a size over the relay's SIZE, a bad envelope) are
      // the relay's rules, not a connection problem.
      if ((err.responseCode && err.responseCode >= 400) || LOCAL_REFUSALS.has(err.code ?? '')) {
        finish({ outcome: 'refused', response, accepted: [], rejected: [...envelope.to] }, false);
      } else if (dataStarted) {
        finish({ outcome: 'unknown', response, error: err.message, timedOut: err.code === 'ETIMEDOUT' }, false);
      } else {
        finish({ outcome: 'unreachable', response, error: err.message, connected }, false);
      }
    };

    const stop = () => {
      if (!dataStarted) fail(new Error(STOPPED_BEFORE_DATA));
    };
    if (signal?.aborted) {
      resolve({ outcome: 'unreachable', response: null, error: STOPPED_BEFORE_DATA, connected: false });
      return;
    }
    try {
      connection = new SMTPConnection({ ...options, ...socketTimeouts, logger: false });
    } catch (err) {
      resolve({ outcome: 'unreachable', response: null, error: (err as Error).message, connected: false });
      return;
    }
    signal?.addEventListener('abort', stop, { once: true });
    connection.on('error', fail);
    // Declared after finish, which clears it: finish only ever runs from these callbacks, later.
    const deadline = setTimeout(
      () => fail(Object.assign(new Error(`no final answer within ${totalTimeout} ms`), { code: 'ETIMEDOUT' })),
      totalTimeout,
    );
    connection.connect((connectError) => {
      if (connectError) return fail(connectError);
      connected = true;
      const send = () =>
        connection.send({ from: envelope.from, to: envelope.to, size: raw.length }, message, (err, info) => {
          if (err || !info) return fail(err ?? new Error('no answer'));
          const rejectedErrors = ((info as { rejectedErrors?: SmtpError[] }).rejectedErrors ?? []).filter(
            (e) => e.responseCode === 452 && e.recipient !== undefined,
          );
          const tooMany = rejectedErrors.map((e) => e.recipient!);
          finish(
            { outcome: 'sent', response: info.response, accepted: info.accepted, rejected: info.rejected, tooMany },
            true,
          );
        });
      if (auth?.user) {
        connection.login({ user: auth.user, pass: auth.pass ?? '' }, (err) => (err ? fail(err) : send()));
      } else {
        send();
      }
    });
  });
}
