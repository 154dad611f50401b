import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (the digest). */
  html?: string;
  /** Extra headers (List-Unsubscribe…): ASCII values. */
  headers?: Record<string, string>;
}

/** What the relay answered ("250 2.0.0 Ok: queued as …"). */
export interface MailReceipt {
  response: string | null;
}

export interface Mailer {
  /** Rejects with the relay's refusal (nodemailer's error: `response`, `responseCode`). */
  send(message: MailMessage): Promise<void>;
  /** send, answering the relay's reply (the test digest shows it); absent in test recorders. */
  sendWithReceipt?(message: MailMessage): Promise<MailReceipt>;
}

/** Sends with the relay's answer when the mailer gives it (null otherwise). */
export async function sendForReceipt(mailer: Mailer, message: MailMessage): Promise<MailReceipt> {
  if (mailer.sendWithReceipt) return mailer.sendWithReceipt(message);
  await mailer.send(message);
  return { response: null };
}

interface InfoLogger {
  info(obj: object, msg: string): void;
}

/**
 * The console's own e-mails. With QC_SMTP_URL they go to that relay; without it (development, a
 * console with no relay yet) they are written to the log at info level, so the link can be followed.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: InfoLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      async send(message) {
        log.info({ mail: message }, `e-mail not sent (QC_SMTP_URL is unset): ${message.subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  const sendWithReceipt = async (message: MailMessage): Promise<MailReceipt> => {
    const info = (await transport.sendMail({ from: config.mailFrom, ...message })) as { response?: unknown };
    return { response: typeof info.response === 'string' ? info.response : null };
  };
  return {
    async send(message) {
      await sendWithReceipt(message);
    },
    sendWithReceipt,
  };
}
