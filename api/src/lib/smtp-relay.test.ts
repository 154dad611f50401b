import { createServer, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../test/helpers';
import { relayRaw, type RelayTimeouts } from './smtp-relay';

// How a failure is classified decides what a bulk release does next (release.service RelayBreaker):
// only a relay that cannot be connected to at all stops the other releases.

const FAST: RelayTimeouts = {
  connectionTimeout: 2000,
  greetingTimeout: 2000,
  socketTimeout: 2000,
  totalTimeout: 10_000,
};
const envelope = { from: 'a@example.org', to: ['b@example.org'] };
const message = Buffer.from('Subject: x\r\n\r\n' + 'x'.repeat(1000) + '\r\n');

const listen = (server: Server | SMTPServer) =>
  new Promise<number>((resolve) => {
    const net = server instanceof SMTPServer ? server.server : server;
    net.listen(0, '127.0.0.1', () => resolve((net.address() as { port: number }).port));
  });
const close = (server: Server | SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));

test('nothing listening: unreachable, never connected', async () => {
  const port = await freePort();
  const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
  expect(result).toMatchObject({ outcome: 'unreachable', connected: false });
});

test('a relay that greets, then hangs up on MAIL FROM: unreachable, but connected', async () => {
  const server = createServer((socket) => {
    socket.write('220 relay.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      if (/^(EHLO|HELO)/i.test(chunk.toString())) socket.write('250 relay.test\r\n');
      else socket.destroy();
    });
  });
  const port = await listen(server);
  try {
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
    expect(result).toMatchObject({ outcome: 'unreachable', connected: true });
  } finally {
    await close(server);
  }
});

test('a quoted local part goes on the wire as written, in one RCPT TO', async () => {
  const commands: string[] = [];
  const server = createServer((socket) => {
    socket.write('220 relay.test ESMTP\r\n');
    let inData = false;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let eol: number;
      while ((eol = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, eol);
        buffered = buffered.slice(eol + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 queued\r\n');
          }
          continue;
        }
        commands.push(line);
        if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  const port = await listen(server);
  try {
    const to = ['"john doe"@example.org', '"a\\"b"@example.org'];
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, { ...envelope, to }, message, FAST);
    expect(result).toMatchObject({ outcome: 'sent', accepted: to });
    expect(commands.filter((c) => c.startsWith('RCPT'))).toEqual([
      'RCPT TO:<"john doe"@example.org>',
      'RCPT TO:<"a\\"b"@example.org>',
    ]);
  } finally {
    await close(server);
  }
});

test('a message over the size the relay advertises: refused (the relay is up)', async () => {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 100,
  });
  const port = await listen(server);
  try {
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
    expect(result).toMatchObject({ outcome: 'refused', accepted: [], rejected: envelope.to });
  } finally {
    await close(server);
  }
});

test('a relay that never gives its final answer: unknown at the total deadline, before any inactivity timeout', async () => {
  // The data is taken, then the answer never comes (a relay trickling bytes would never trip the
  // inactivity timeout: here it is simply longer than the test).
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream) {
      stream.resume();
    },
  });
  const port = await listen(server);
  const started = Date.now();
  try {
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, {
      ...FAST,
      socketTimeout: 30_000,
      totalTimeout: 400,
    });
    expect(result).toMatchObject({ outcome: 'unknown', error: 'no final answer within 400 ms' });
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    await close(server);
  }
});
