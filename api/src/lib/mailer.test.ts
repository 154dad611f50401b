import { createMailer } from './mailer';

test('without QC_SMTP_URL the message (and so its link) is written to the log at info level', async () => {
  const lines: { obj: object; msg: string }[] = [];
  const mailer = createMailer(
    { smtpUrl: null, mailFrom: 'qc@example.com' },
    { info: (obj, msg) => lines.push({ obj, msg }) },
  );
  await mailer.send({ to: 'new@example.com', subject: 'Confirm', text: 'Open https://qc.example/x?token=abc' });
  expect(lines).toHaveLength(1);
  expect(lines[0]!.msg).toContain('Confirm');
  expect(JSON.stringify(lines[0]!.obj)).toContain('https://qc.example/x?token=abc');
});

test('with QC_SMTP_URL the message goes to that relay (a minimal SMTP sink on loopback)', async () => {
  const net = await import('node:net');
  let received = '';
  const server = net.createServer((socket) => {
    let inData = false;
    let buffer = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 queued\r\n');
          } else received += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 sink\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'qc@example.com' },
      { info: () => {} },
    );
    await mailer.send({ to: 'new@example.com', subject: 'Confirm', text: 'Open https://qc.example/x?token=abc' });
    expect(received).toMatch(/^From: qc@example.com$/m);
    expect(received).toMatch(/^To: new@example.com$/m);
    expect(received).toContain('https://qc.example/x?token=abc');
  } finally {
    server.close();
  }
});
