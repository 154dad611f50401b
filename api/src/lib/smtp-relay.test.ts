import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
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
    // A client that hangs up mid-handshake (the relay refusing a self-signed certificate) is an
    // 'error' event of the test relay: expected here, and unhandled it would fail the whole file.
    if (server instanceof SMTPServer) server.on('error', () => undefined);
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
  try {
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, {
      ...FAST,
      socketTimeout: 30_000,
      totalTimeout: 400,
    });
    // Its error names the total deadline: the 30 s inactivity timeout did not end it.
    expect(result).toMatchObject({ outcome: 'unknown', error: 'no final answer within 400 ms', timedOut: true });
  } finally {
    await close(server);
  }
});

/** A real relay (smtp-server) that records the mail it takes; `options` add to or override its set-up. */
async function relay(options: ConstructorParameters<typeof SMTPServer>[0] = {}) {
  const received: { to: string[]; user: string | undefined }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), user: session.user as string | undefined });
        callback(null, '2.0.0 queued');
      });
    },
    ...options,
  });
  return { server, received, port: await listen(server) };
}

describe('AUTH with the credentials of QC_SMTP_URL', () => {
  // A password with the characters a URL must escape: written percent-encoded in QC_SMTP_URL.
  const PASSWORD = 'p@ss:w/rd%';
  const withAuth = () =>
    relay({
      authOptional: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true, // plain TCP in the test; a real relay would want TLS first
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'qc-relay' && auth.password === PASSWORD) return callback(null, { user: auth.username });
        callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
      },
    });

  test('the right password: the relay authenticates the console and takes the mail', async () => {
    const { server, received, port } = await withAuth();
    try {
      const url = `smtp://qc-relay:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
      const result = await relayRaw(url, envelope, message, FAST);
      expect(result).toMatchObject({ outcome: 'sent', accepted: envelope.to });
      expect(received).toEqual([{ to: envelope.to, user: 'qc-relay' }]);
    } finally {
      await close(server);
    }
  });

  test('a wrong password: 535, refused (the relay is up: not "unreachable"), nothing taken', async () => {
    const { server, received, port } = await withAuth();
    try {
      const result = await relayRaw(`smtp://qc-relay:wrong@127.0.0.1:${port}`, envelope, message, FAST);
      expect(result).toMatchObject({ outcome: 'refused', response: expect.stringMatching(/^535 /) });
      expect(received).toEqual([]);
    } finally {
      await close(server);
    }
  });

  test('no credentials in the URL, to a relay that requires them: refused at MAIL FROM (530)', async () => {
    const { server, received, port } = await withAuth();
    try {
      const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
      expect(result).toMatchObject({ outcome: 'refused', response: expect.stringMatching(/^530 /) });
      expect(received).toEqual([]);
    } finally {
      await close(server);
    }
  });
});

describe('implicit TLS (smtps://) to a relay with a self-signed certificate', () => {
  // A self-signed certificate for 127.0.0.1 valid until 2126 (smtp-server's built-in one has
  // expired, which would test expiry instead): no CA vouches for it.
  const fixture = (name: string) => readFileSync(path.join(__dirname, '../test/fixtures', name));
  const tlsRelay = () => relay({ secure: true, key: fixture('relay-tls.key'), cert: fixture('relay-tls.crt') });

  test('checked by default: the certificate is refused, so nothing is sent and the relay counts as not connected', async () => {
    const { server, received, port } = await tlsRelay();
    try {
      const result = await relayRaw(`smtps://127.0.0.1:${port}`, envelope, message, FAST);
      expect(result).toMatchObject({ outcome: 'unreachable', connected: false });
      expect((result as { error: string }).error).toMatch(/self[- ]signed/i);
      expect(received).toEqual([]);
    } finally {
      await close(server);
    }
  });

  test('?tls.rejectUnauthorized=false in the URL (an operator’s explicit choice): sent over TLS', async () => {
    const { server, received, port } = await tlsRelay();
    try {
      const result = await relayRaw(`smtps://127.0.0.1:${port}/?tls.rejectUnauthorized=false`, envelope, message, FAST);
      expect(result).toMatchObject({ outcome: 'sent', accepted: envelope.to });
      expect(received).toHaveLength(1);
    } finally {
      await close(server);
    }
  });
});

test('a temporary refusal at RCPT (451): refused with the relay’s 451, nothing taken', async () => {
  const { server, received, port } = await relay({
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
    },
  });
  try {
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
    expect(result).toMatchObject({ outcome: 'refused', response: expect.stringMatching(/^451 /) });
    expect(received).toEqual([]);
  } finally {
    await close(server);
  }
});

test('after the message: silence past the inactivity timeout is unknown and timed out; a hang-up is unknown, not timed out', async () => {
  // Takes the message whole, then says nothing (`hangUp` false) or closes the connection.
  let hangUp = false;
  const server = createServer((socket) => {
    let inData = false;
    let data = '';
    socket.write('220 relay.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      if (inData) {
        data += chunk.toString();
        if (data.includes('\r\n.\r\n') && hangUp) socket.destroy();
        return;
      }
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go on\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
  });
  const port = await listen(server);
  try {
    const silent = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, {
      ...FAST,
      socketTimeout: 300,
      totalTimeout: 30_000,
    });
    expect(silent).toMatchObject({ outcome: 'unknown', timedOut: true });
    hangUp = true;
    const dropped = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, FAST);
    expect(dropped).toMatchObject({ outcome: 'unknown', timedOut: false });
  } finally {
    await close(server);
  }
});

test('a relay that accepts the connection but never greets: unreachable, not connected, at the greeting timeout', async () => {
  const sockets: import('node:net').Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket)); // says nothing
  const port = await listen(server);
  try {
    // Small timeouts so the test does not wait 30 s; the total deadline is far longer, so the
    // error says which one ended it.
    const result = await relayRaw(`smtp://127.0.0.1:${port}`, envelope, message, {
      connectionTimeout: 2000,
      greetingTimeout: 300,
      socketTimeout: 30_000,
      totalTimeout: 30_000,
    });
    expect(result).toMatchObject({ outcome: 'unreachable', connected: false });
    expect((result as { error: string }).error).toMatch(/greeting/i);
    expect(sockets).toHaveLength(1); // it did connect: a TCP accept is not an SMTP relay
  } finally {
    for (const s of sockets) s.destroy();
    await close(server);
  }
});
