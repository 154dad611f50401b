'use strict';
// Small loopback network helpers: free ports and readiness probes. 127.0.0.1 only.

const http = require('node:http');
const net = require('node:net');

const HOST = '127.0.0.1';

/** A port that was free on 127.0.0.1 a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts connections on the port. */
function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Connects, sends `send` (if any) and resolves with what arrived once `until` matches it. */
function converse(port, { send, until, timeoutMs = 2000 }) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer on ${HOST}:${port}`));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('connect', () => {
      if (send) socket.write(send);
    });
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (until.test(data)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(data);
      }
    });
  });
}

const redisPing = (port) => converse(port, { send: 'PING\r\n', until: /\r\n/ }).then((d) => d.startsWith('+PONG'));

// An SMTP greeting (220) then QUIT, so the server logs a clean disconnect.
function smtpGreeting(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no SMTP greeting'));
    }, 3000);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (/^220[ -]/.test(data) && data.includes('\r\n')) {
        clearTimeout(timer);
        socket.end('QUIT\r\n');
        resolve(true);
      } else if (data.includes('\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`unexpected greeting: ${data.trim()}`));
      }
    });
  });
}

/** One HTTP request on loopback; resolves with {status, body}. */
function request(url, { method = 'GET', headers = {}, body, timeoutMs = 3000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, timeout: timeoutMs, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

module.exports = { HOST, converse, freePort, portInUse, redisPing, request, smtpGreeting };
