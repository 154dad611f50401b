import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
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
  return {
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
  };
}
