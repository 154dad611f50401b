'use strict';
// A real HTTP server on 127.0.0.1 standing in for GET /api/mailstack/domains/ (the api's route:
// service token, {"domains": [...]}, a strong ETag, 304 on If-None-Match), with the ways an api,
// a proxy or a network can fail. It can be stopped (connection refused) and started again on the
// same port.

const crypto = require('node:crypto');
const http = require('node:http');

const PATH = '/api/mailstack/domains/';

/**
 * `mode`: 'ok', a status code (JSON error body), 'hang', 'reset', 'garbage' (200, not JSON),
 * 'empty' (200, no body), 'truncated' (Content-Length larger than what is sent, then closed),
 * 'html' (200 text/html), 'shape' (200 JSON without "domains"), 'bad-entry' (one name that is not
 * a lower-case A-label), 'no-etag' (200 without an ETag).
 */
async function startDomainsApi({ token, domains = [] }) {
  const sockets = new Set();
  const api = { token, domains, mode: 'ok', requests: [], answers: [], url: '', port: 0, server: null };
  const answer = (res, status, headers, body = '') => {
    api.answers.push(status);
    res.writeHead(status, headers);
    res.end(body);
  };
  const handler = (req, res) => {
    api.requests.push({ method: req.method, url: req.url, headers: req.headers });
    const json = { 'content-type': 'application/json; charset=utf-8' };
    if (req.url !== PATH) return answer(res, 404, json, '{"detail":"Not found.","code":"not_found"}');
    if (req.headers.authorization !== `Bearer ${api.token}`) {
      return answer(res, 401, json, '{"detail":"no","code":"token_invalid"}');
    }
    const body = JSON.stringify({ domains: [...api.domains].sort() });
    const etag = `"${crypto.createHash('sha256').update(body).digest('base64url')}"`;
    switch (api.mode) {
      case 'ok':
        if (req.headers['if-none-match'] === etag) return answer(res, 304, { etag });
        return answer(res, 200, { ...json, etag }, body);
      case 'no-etag':
        return answer(res, 200, json, body);
      case 'hang':
        return undefined;
      case 'reset':
        return req.socket.destroy();
      case 'garbage':
        return answer(res, 200, json, '{"domains": ["a.example", ');
      case 'empty':
        return answer(res, 200, json, '');
      case 'html':
        return answer(res, 200, { 'content-type': 'text/html' }, '<html>{"domains": []}</html>');
      case 'shape':
        return answer(res, 200, json, '{"results": []}');
      case 'bad-entry':
        return answer(res, 200, json, '{"domains": ["ok.example", "Not A Domain"]}');
      case 'truncated': {
        // Cut right after `{"domains": [`: a client that parsed what it got could read "no domains".
        res.writeHead(200, { ...json, etag, 'content-length': Buffer.byteLength(body) });
        res.write(body.slice(0, body.indexOf('[') + 1));
        return setTimeout(() => req.socket.destroy(), 20);
      }
      default:
        return answer(res, api.mode, json, '{"detail":"broken","code":"internal_error"}');
    }
  };
  api.start = () =>
    new Promise((resolve, reject) => {
      const server = http.createServer(handler);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.listen(api.port, '127.0.0.1', () => {
        api.port = server.address().port;
        api.url = `http://127.0.0.1:${api.port}`;
        api.server = server;
        resolve();
      });
    });
  api.stop = () =>
    new Promise((resolve) => {
      if (!api.server) return resolve();
      for (const s of sockets) s.destroy();
      api.server.close(() => resolve());
      api.server = null;
    });
  await api.start();
  return api;
}

module.exports = { startDomainsApi, PATH };
