import { connect } from 'node:net';

// Oversize multipart uploads over a real socket (issue 21 item 4): what the client sends until the
// server closes, to show a limit is enforced at the limit and not after reading everything.

export const MB = 1024 * 1024;
/** What the client offers: far more than any limit, so reading it all would show. */
export const OFFERED = 160 * MB;
/**
 * What may be sent before the server's close is seen: the socket buffers of both ends on loopback
 * (a few MB each with autotuning) and the responses' round trip.
 */
export const SLACK = 32 * MB;

/** The request line and headers of a multipart POST to `path` (`extra` adds or overrides). */
export function multipartHead(path: string, boundary: string, bearer: string, extra: Record<string, string>) {
  return [
    `POST ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    `content-type: multipart/form-data; boundary=${boundary}`,
    `authorization: Bearer ${bearer}`,
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
}

/** `opening` (the form's first parts, ending with a part's headers), then that part without end, in 256 KB pieces. */
export function* endlessPart(opening: string, chunked: boolean): Generator<Buffer> {
  const frame = (b: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b;
  yield frame(Buffer.from(opening));
  const piece = frame(Buffer.alloc(256 * 1024, 0x61));
  for (;;) yield piece;
}

export interface UploadOutcome {
  /** Body bytes handed to the socket before the server closed it (or all of OFFERED). */
  sent: number;
  status: number;
  body: string;
  connection: string | undefined;
}

/** Streams the request to 127.0.0.1:`port` until the server closes it or OFFERED bytes are sent. */
export function streamUpload(port: number, headers: string, pieces: Generator<Buffer>): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let closed = false;
    let response = '';
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('error', () => (closed = true));
    socket.on('close', () => {
      closed = true;
      const [statusLine = '', ...rest] = response.split('\r\n');
      const blank = rest.indexOf('');
      const fields = Object.fromEntries(
        rest.slice(0, blank).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        sent,
        status: Number(statusLine.split(' ')[1]),
        body: rest.slice(blank + 1).join('\r\n'),
        connection: fields.connection,
      });
    });
    socket.on('connect', async () => {
      socket.write(headers);
      for (const piece of pieces) {
        if (closed || sent >= OFFERED) break;
        sent += piece.length;
        if (!socket.write(piece)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off('drain', done);
              socket.off('close', done);
              resolve();
            };
            socket.on('drain', done);
            socket.on('close', done);
          });
        }
      }
      if (!closed) socket.end(); // all offered: a server that drained it all answers, then closes
    });
  });
}
