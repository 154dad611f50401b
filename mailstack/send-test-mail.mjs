#!/usr/bin/env node
// Sends one test message to the mail stack (Haraka on 127.0.0.1) and prints the SMTP answer.
//
//   npm run node -- mailstack/send-test-mail.mjs            # a clean message: delivered to the next hop
//   npm run node -- mailstack/send-test-mail.mjs --gtube    # GTUBE spam: quarantined (250, shows in the console)
//
// Options: --port N (default QC_MAILSTACK_SMTP_PORT or 2525), --host H (127.0.0.1),
//          --from ADDR, --to ADDR[,ADDR...], --subject TEXT, --file message.eml (sent as is).
// Exit code 0 on 250, 1 otherwise (a 4xx means: try again later, e.g. the console is down).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import mailstack from './index.js';

const { values: o } = parseArgs({
  options: {
    gtube: { type: 'boolean', default: false },
    port: { type: 'string', default: process.env.QC_MAILSTACK_SMTP_PORT || '2525' },
    host: { type: 'string', default: '127.0.0.1' },
    from: { type: 'string' },
    to: { type: 'string', default: 'bob@example.com' },
    subject: { type: 'string' },
    file: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (o.help) {
  process.stdout.write(
    fs
      .readFileSync(new URL(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 9)
      .join('\n') + '\n',
  );
  process.exit(0);
}

const from = o.from || (o.gtube ? 'spammer@example.net' : 'alice@example.org');
const to = o.to.split(',').map((a) => a.trim());
const stamp = new Date();
const id = `${stamp.getTime()}.${process.pid}`;
const raw = o.file
  ? fs.readFileSync(o.file)
  : [
      `From: ${o.gtube ? 'Spammer' : 'Alice'} <${from}>`,
      `To: <${to[0]}>`,
      `Subject: ${o.subject || (o.gtube ? `Test spam (GTUBE) ${stamp.toISOString()}` : `Lunch on Friday? ${stamp.toISOString()}`)}`,
      `Message-ID: <test-${id}@${from.split('@')[1] || 'example.org'}>`,
      `Date: ${stamp.toUTCString().replace('GMT', '+0000')}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'Hello Bob, are we still on for lunch on Friday? The usual place at noon works for me.',
      ...(o.gtube ? ['', mailstack.GTUBE] : []),
      '',
    ].join('\r\n');

const transport = nodemailer.createTransport({
  host: o.host,
  port: Number(o.port),
  secure: false,
  ignoreTLS: true,
  name: 'send-test-mail.localhost',
  connectionTimeout: 10000,
  greetingTimeout: 10000,
  socketTimeout: 60000,
});
try {
  const info = await transport.sendMail({ envelope: { from, to }, raw });
  process.stdout.write(`${info.response}\n`);
} catch (err) {
  process.stdout.write(`${err.response || err.message}\n`);
  process.exitCode = 1;
} finally {
  transport.close();
}
