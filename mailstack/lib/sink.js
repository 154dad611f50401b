'use strict';
// A next-hop SMTP sink on 127.0.0.1 (smtp-server): keeps every message it is given (envelope +
// exact bytes) in memory and, with `dir`, as <n>.eml + <n>.json files.

const fs = require('node:fs');
const path = require('node:path');
const { SMTPServer } = require('smtp-server');

async function startSink({ port = 0, dir, onMessage } = {}) {
  const messages = [];
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const server = new SMTPServer({
    name: 'sink.qconsole.test',
    banner: 'Quarantine Console test sink',
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    size: 64 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const message = {
          n: messages.length + 1,
          receivedAt: new Date().toISOString(),
          envelope: {
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
          },
          helo: session.hostNameAppearsAs,
          raw: Buffer.concat(chunks),
        };
        messages.push(message);
        if (dir) {
          fs.writeFileSync(path.join(dir, `${message.n}.eml`), message.raw);
          const info = { n: message.n, receivedAt: message.receivedAt, envelope: message.envelope, helo: message.helo };
          fs.writeFileSync(path.join(dir, `${message.n}.json`), `${JSON.stringify(info, null, 2)}\n`);
        }
        if (onMessage) onMessage(message);
        callback(null, `sink stored #${message.n}`);
      });
    },
  });
  server.on('error', () => {
    /* a client dropping its connection must not crash the sink */
  });
  await new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.server.removeListener('error', reject);
      resolve();
    });
  });
  return {
    port: server.server.address().port,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

module.exports = { startSink };
