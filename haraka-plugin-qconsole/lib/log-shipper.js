'use strict';
// Ships Haraka's log lines to the console: POST <api>/api/haraka/logs/ingest/ {lines: [...]} with
// the ingest token (issue 19). Mail never waits for it: push() (the log hook) only copies the line
// into a bounded in-memory buffer; requests go out from timers, one at a time, over keep-alive.
//
//   - every [logs] flush_interval (0.5 s) or at flush_lines (200) lines, up to [logs] batch per request
//   - api unreachable, 5xx, 429, a timeout, or a 2xx that is not the api's answer: the lines go to
//     the disk spool (lib/log-spool.js) in order and are resent in order with a backoff once the api
//     answers; a resend carries the same ids (`<boot id>:<seq>`), so the api stores each line once
//   - 413: the batch is split in halves (a single line refused so is dropped)
//   - any other 4xx/3xx (bad token, bad request): that batch is dropped, not retried forever, and
//     counted in the one "N lines dropped" marker line sent with the next batch
//   - PROTOCOL and DATA lines are never shipped (lib/log-line.js); other levels go as Haraka names
//     them: the api maps them to the four severities (HARAKA_LEVELS in @qc/contracts)
//   - at shutdown (plugin shutdown, process exit, SIGTERM) what is in memory is written to the spool
// Nothing here logs through Haraka from inside the hook (it would recurse); state changes are
// reported later, from a timer, through `report`.

const cluster = require('node:cluster');
const crypto = require('node:crypto');
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');

const { toLine } = require('./log-line');
const { LogSpool } = require('./log-spool');

const BACKOFF_MIN_MS = 500;

/** POST {lines} and resolve {status, body}; rejects on a network error or the timeout. */
function postLines({ url, token, lines, timeoutMs, agents }) {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(JSON.stringify({ lines }));
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'POST',
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': body.length,
        accept: 'application/json',
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(body);
  });
}

/** 'ok' | 'split' (413) | 'refused' (dropped) | 'retry' */
function classify(status, body) {
  if (status >= 200 && status < 300) {
    try {
      const r = JSON.parse(body);
      if (Number.isInteger(r?.accepted)) return 'ok';
    } catch {
      /* not the api's answer (a proxy's page): keep the lines */
    }
    return 'retry';
  }
  if (status === 413) return 'split';
  if (status === 408 || status === 429 || status >= 500 || status < 400) return 'retry';
  return 'refused';
}

class LogShipper {
  /**
   * @param {object} o
   * @param {() => {logsUrl: URL, token: string, logs: object}} o.settings  current settings
   * @param {string} o.hostname
   * @param {(level: string, msg: string) => void} [o.report]  called from a timer, never from push()
   */
  constructor({ settings, hostname, report = () => {} }) {
    this.settings = settings;
    this.hostname = String(hostname || 'localhost').slice(0, 255);
    this.report = report;
    const cfg = settings().logs;
    this.bootId = crypto.randomBytes(6).toString('hex');
    this.seq = 0;
    this.buffer = [];
    // A cluster worker (Haraka nodes > 0) has its own spool: w1, w2 … (the same ids after a restart).
    const dir = cfg.spoolDir && cluster.isWorker ? path.join(cfg.spoolDir, `w${cluster.worker.id}`) : cfg.spoolDir;
    this.spool = new LogSpool({ dir, maxBytes: cfg.spoolMaxBytes, segmentLines: cfg.batch });
    this.spool.idPrefix = this.bootId;
    this.spoolOk = false;
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      https: new https.Agent({ keepAlive: true, maxSockets: 1 }),
    };
    this.sending = null; // the pump's promise while a request is out
    this.inflight = null; // {lines, seq}: a batch taken from memory, not yet stored by the api
    this.failures = 0;
    this.retryAt = 0;
    this.timer = null;
    this.soon = null;
    this.closed = false;
    this.state = 'ok';
    this.stats = { shipped: 0, requests: 0, spooled: 0, dropped: 0 };
    this.onExit = () => this.flushSync();
    this.onSigterm = () => {
      this.flushSync();
      // Nobody else listens (Haraka does only as pid 1): terminate as SIGTERM would have.
      if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
    };
  }

  /** Opens the spool (what an earlier run left is sent first) and hooks process exit. */
  start() {
    try {
      if (!this.spool.dir) throw new Error("[logs] spool_dir is relative and Haraka's directory is unknown");
      this.spool.open();
      this.spoolOk = true;
    } catch (err) {
      this.defer('error', `logs: no spool at ${this.spool.dir} (${err.message}): lines kept in memory only`);
    }
    process.on('exit', this.onExit);
    process.once('SIGTERM', this.onSigterm);
    if (!this.spool.empty || this.spool.marker) this.kick(0);
    return this;
  }

  /** The log hook: a copy of the line into memory. Synchronous, no I/O, never throws. */
  push(item) {
    try {
      if (this.closed) return;
      const line = toLine(item, { hostname: this.hostname });
      if (!line) return;
      line.id = `${this.bootId}:${++this.seq}`;
      this.buffer.push(line);
      const { flushLines, bufferLines } = this.settings().logs;
      if (this.buffer.length >= flushLines || this.buffer.length > bufferLines) this.kick(0);
      else if (!this.timer) this.kick(this.settings().logs.flushIntervalMs);
    } catch {
      /* the log line stays on stdout; mail goes on */
    }
  }

  /** Runs tick() after `ms` (0: on the next turn of the event loop, never synchronously). */
  kick(ms) {
    if (this.closed) return;
    if (ms === 0) {
      this.soon ??= setImmediate(() => {
        this.soon = null;
        this.tick();
      });
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
    }, ms);
    this.timer.unref?.();
  }

  tick() {
    if (this.closed) return;
    const waiting = Date.now() < this.retryAt;
    // While the api is failing or older lines are spooled, new lines queue behind them on disk.
    if (this.buffer.length && (waiting || !this.spool.empty)) this.spill();
    if (this.buffer.length > this.settings().logs.bufferLines) this.spill();
    if (waiting) return this.kick(this.retryAt - Date.now());
    if (!this.sending) this.sending = this.pump().finally(() => (this.sending = null));
  }

  /** The buffer to the spool; without a spool, the oldest lines past the bound are dropped. */
  spill() {
    if (!this.buffer.length) return;
    const lines = this.buffer;
    if (this.spoolOk) {
      try {
        this.spool.write(lines);
        this.buffer = [];
        this.stats.spooled += lines.length;
        return;
      } catch (err) {
        this.defer('error', `logs: cannot write the spool (${err.message}): keeping lines in memory`, 'spool');
      }
    }
    const over = this.buffer.length - this.settings().logs.bufferLines;
    if (over > 0) {
      const dropped = this.buffer.splice(0, over);
      this.drop(dropped, 'the in-memory log buffer was full');
    }
  }

  drop(lines, reason) {
    if (!lines.length) return;
    this.stats.dropped += lines.length;
    this.spool.addDropped(lines.length, lines.at(-1).ts, reason);
  }

  markerLine(m) {
    return {
      id: m.id,
      ts: m.ts ?? new Date().toISOString(),
      level: 'WARN',
      hostname: this.hostname,
      uuid: null,
      origin: 'qconsole',
      message: `${m.count} lines dropped (${m.reasons.join('; ')})`,
    };
  }

  /** Sends what is oldest (spool first, then memory) until nothing is left or the api fails. */
  async pump() {
    for (;;) {
      if (this.closed) return;
      let source = null;
      let lines;
      if (this.spoolOk && !this.spool.empty) {
        const head = this.spool.head();
        source = { seg: head.seg };
        lines = head.lines;
        this.spool.busy.add(head.seg.seq);
      } else if (this.buffer.length) {
        lines = this.buffer.splice(0, this.settings().logs.batch);
        source = { seq: this.spoolOk ? this.spool.reserve() : undefined };
        this.inflight = { lines, seq: source.seq };
      } else if (!this.spool.marker) {
        return;
      } else {
        source = {}; // only the marker is left to send
        lines = [];
      }
      const marker = this.spool.marker ? { ...this.spool.marker } : null;
      let result;
      try {
        result = await this.sendAll(marker ? [this.markerLine(marker), ...lines] : lines, Boolean(marker));
      } catch (err) {
        result = { done: 0, retry: true, why: err.message };
      }
      if (this.closed) return; // flushSync already kept what was not stored
      const markerDone = marker && result.done > 0;
      if (markerDone && !result.markerRefused) this.spool.markerSent(marker);
      const rest = lines.slice(Math.max(0, result.done - (marker ? 1 : 0)));
      this.settle(source, rest);
      this.stats.shipped += result.shipped ?? 0;
      if (result.retry) return this.failed(result.why);
      this.recovered();
      if (!this.spool.empty || this.buffer.length >= this.settings().logs.flushLines) continue;
      if (this.buffer.length) this.kick(this.settings().logs.flushIntervalMs);
      return;
    }
  }

  /** Puts back what a batch did not get stored: in its segment, or spooled at its reserved seq. */
  settle(source, rest) {
    if (source.seg) {
      this.spool.busy.delete(source.seg.seq);
      try {
        if (rest.length) this.spool.rewrite(source.seg, rest);
        else this.spool.remove(source.seg);
      } catch (err) {
        this.defer('error', `logs: spool: ${err.message}`, 'spool');
      }
      return;
    }
    if (source.seq === undefined && !this.inflight) return; // the marker alone
    this.inflight = null;
    if (!rest.length) return;
    if (this.spoolOk) {
      try {
        this.spool.write(rest, { seq: source.seq });
        this.stats.spooled += rest.length;
        return;
      } catch (err) {
        this.defer('error', `logs: cannot write the spool (${err.message}): keeping lines in memory`, 'spool');
      }
    }
    this.buffer.unshift(...rest);
  }

  /**
   * Sends `lines` in order, splitting on 413. Resolves {done, shipped, retry, why, markerRefused}:
   * `done` leading lines are settled (stored, or refused and counted as dropped).
   */
  async sendAll(lines, withMarker) {
    const chunks = [[0, lines.length]];
    let done = 0;
    let shipped = 0;
    let markerRefused = false;
    while (chunks.length) {
      const [from, to] = chunks.shift();
      const part = lines.slice(from, to);
      if (!part.length) continue;
      const s = this.settings();
      if (!s.token) return { done, shipped, retry: true, why: 'no ingest token', markerRefused };
      this.stats.requests++;
      const { status, body } = await postLines({
        url: s.logsUrl,
        token: s.token,
        lines: part,
        timeoutMs: s.logs.timeoutMs,
        agents: this.agents,
      });
      const outcome = classify(status, body);
      if (outcome === 'retry') return { done, shipped, retry: true, why: `HTTP ${status}`, markerRefused };
      if (outcome === 'split' && part.length > 1) {
        const mid = from + Math.ceil(part.length / 2);
        chunks.unshift([from, mid], [mid, to]);
        continue;
      }
      if (outcome === 'ok') shipped += part.length;
      else {
        // Refused (or one line too large): dropped, counted in the marker; the marker itself is kept.
        const own = withMarker && from === 0 ? part.slice(1) : part;
        if (withMarker && from === 0) markerRefused = true;
        this.drop(own, `the api refused them: HTTP ${status}`);
        this.defer(
          'warn',
          `logs: the api answered HTTP ${status} to ${part.length} lines: dropped`,
          `refused-${status}`,
        );
      }
      done = to;
    }
    return { done, shipped, retry: false, markerRefused };
  }

  failed(why) {
    this.failures++;
    const max = this.settings().logs.retryMaxMs;
    const delay = Math.min(max, BACKOFF_MIN_MS * 2 ** Math.min(this.failures - 1, 16));
    this.retryAt = Date.now() + Math.round(delay * (0.8 + Math.random() * 0.4));
    this.defer('warn', `logs: the api does not take the lines (${why}): spooling to ${this.spool.dir}`, 'down');
    this.kick(this.retryAt - Date.now());
  }

  recovered() {
    if (this.failures) this.defer('notice', 'logs: the api takes the lines again: sending the spool', 'ok');
    this.failures = 0;
    this.retryAt = 0;
  }

  /** Reports a state change once, outside any log hook call (a timer). */
  defer(level, msg, state) {
    if (state && state === this.state) return;
    if (state) this.state = state;
    setImmediate(() => {
      try {
        this.report(level, msg);
      } catch {
        /* reporting must not break shipping */
      }
    }).unref?.();
  }

  /** Everything in memory (the batch out included: resending it is harmless) to the spool, now. */
  flushSync() {
    if (!this.spoolOk) return;
    try {
      if (this.inflight?.lines.length) {
        this.spool.write(this.inflight.lines, { seq: this.inflight.seq });
        this.inflight = null;
      }
      if (this.buffer.length) {
        this.spool.write(this.buffer);
        this.buffer = [];
      }
    } catch {
      /* nothing more can be done at exit; the lines are on stdout */
    }
  }

  /** Haraka's shutdown: keep what is in memory on disk, stop. */
  close() {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    clearTimeout(this.timer);
    if (this.soon) clearImmediate(this.soon);
    this.timer = this.soon = null;
    process.removeListener('exit', this.onExit);
    process.removeListener('SIGTERM', this.onSigterm);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

module.exports = { LogShipper, classify, postLines };
