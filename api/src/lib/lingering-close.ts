import type { Socket } from 'node:net';

/** What is still read and thrown away after the answer, at most: enough for the client to read it. */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2000;

/**
 * Closes `socket` once the answer is sent, without reading the rest of an unread body to its end,
 * and without losing the answer: closing a socket that still has unread bytes makes the kernel
 * send a reset, which can discard the answer before the client reads it. So, as Apache's "lingering
 * close": send FIN after the answer, read and discard for a moment (≤ 1 MB, ≤ 2 s), then close.
 * Node's http server calls destroySoon() after an answer marked `Connection: close`.
 */
export function closeAfterAnswer(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    this.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_BYTES) stop();
    });
    this.once('end', stop);
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}
