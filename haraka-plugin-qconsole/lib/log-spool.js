'use strict';
// The log shipper's disk spool: the lines the api could not take yet, oldest first, kept across a
// restart. Segment files `<seq>.ndjson` (one LogIngestLine per line) are sent and removed in seq
// order; the total size is capped: past it the oldest segments go, and ONE marker (dropped.json,
// "N lines dropped") stands in their place until it is sent. Synchronous I/O on purpose: it runs
// from timers (never from the log hook) and at process exit, where only synchronous writes happen.

const fs = require('node:fs');
const path = require('node:path');

const SEGMENT = /^(\d{12})\.ndjson$/;
const MARKER_FILE = 'dropped.json';

const segmentName = (seq) => `${String(seq).padStart(12, '0')}.ndjson`;

function writeAtomic(file, text) {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

const toText = (lines) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');

function parseLines(text) {
  const lines = [];
  let bad = 0;
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const line = JSON.parse(raw);
      if (line && typeof line.id === 'string') lines.push(line);
      else bad++;
    } catch {
      bad++; // a line cut short by a crash mid-append
    }
  }
  return { lines, bad };
}

class LogSpool {
  /**
   * @param {object} o
   * @param {string} o.dir
   * @param {number} o.maxBytes  total size of the segments
   * @param {number} o.segmentLines  lines per segment (one request each when drained)
   */
  constructor({ dir, maxBytes, segmentLines }) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.segmentLines = segmentLines;
    /** @type {{seq: number, bytes: number, lines: number, lastTs: string|null}[]} sorted by seq */
    this.segments = [];
    this.bytes = 0;
    this.seq = 0;
    /** @type {null | {id: string, count: number, ts: string|null, reasons: string[]}} */
    this.marker = null;
    this.busy = new Set(); // segments being sent: never appended to nor dropped
    this.error = null;
    this.idPrefix = null; // the shipper's boot id
    this.markerSeq = 0;
  }

  /** Reads what an earlier run left. Throws when the directory cannot be made (the caller decides). */
  open() {
    fs.mkdirSync(this.dir, { recursive: true });
    for (const name of fs.readdirSync(this.dir).sort()) {
      const m = SEGMENT.exec(name);
      if (!m) continue;
      const seq = Number(m[1]);
      const text = fs.readFileSync(path.join(this.dir, name), 'utf8');
      const { lines } = parseLines(text);
      this.segments.push({
        seq,
        bytes: Buffer.byteLength(text),
        lines: lines.length,
        lastTs: lines.at(-1)?.ts ?? null,
      });
      this.bytes += Buffer.byteLength(text);
      this.seq = Math.max(this.seq, seq);
    }
    try {
      const marker = JSON.parse(fs.readFileSync(path.join(this.dir, MARKER_FILE), 'utf8'));
      if (marker && Number.isInteger(marker.count) && marker.count > 0) this.marker = marker;
    } catch {
      /* none */
    }
  }

  get empty() {
    return this.segments.length === 0;
  }

  /** A seq for a batch taken from memory: if it must be spooled, it goes before later segments. */
  reserve() {
    return ++this.seq;
  }

  file(seq) {
    return path.join(this.dir, segmentName(seq));
  }

  insert(meta) {
    const i = this.segments.findIndex((s) => s.seq > meta.seq);
    if (i < 0) this.segments.push(meta);
    else this.segments.splice(i, 0, meta);
    this.bytes += meta.bytes;
  }

  /**
   * Spools `lines` (oldest first). With `seq` (a reserved one) they get their own segment there;
   * otherwise they go after everything spooled. Throws on an I/O error (nothing half-counted).
   */
  write(lines, { seq, reason = 'the log spool was full' } = {}) {
    if (!lines.length) return;
    if (seq !== undefined) {
      this.writeSegment(seq, lines);
    } else {
      let rest = lines;
      const last = this.segments.at(-1);
      if (last && !this.busy.has(last.seq) && last.lines < this.segmentLines) {
        const part = rest.slice(0, this.segmentLines - last.lines);
        rest = rest.slice(part.length);
        const text = toText(part);
        fs.appendFileSync(this.file(last.seq), text);
        last.lines += part.length;
        last.bytes += Buffer.byteLength(text);
        last.lastTs = part.at(-1).ts;
        this.bytes += Buffer.byteLength(text);
      }
      // At most segmentLines per segment: one request each when drained.
      for (let i = 0; i < rest.length; i += this.segmentLines) {
        this.writeSegment(this.reserve(), rest.slice(i, i + this.segmentLines));
      }
    }
    this.enforceCap(reason);
  }

  writeSegment(seq, lines) {
    const text = toText(lines);
    writeAtomic(this.file(seq), text);
    this.insert({ seq, bytes: Buffer.byteLength(text), lines: lines.length, lastTs: lines.at(-1).ts });
  }

  /** Drops the oldest segments (not one being sent) until the spool fits, counting them in the marker. */
  enforceCap(reason) {
    while (this.bytes > this.maxBytes) {
      const victim = this.segments.find((s) => !this.busy.has(s.seq) && s !== this.segments.at(-1));
      if (!victim) return;
      this.remove(victim);
      this.addDropped(victim.lines, victim.lastTs, reason);
    }
  }

  /** The oldest segment and its lines (corrupt lines counted as dropped). */
  head() {
    const seg = this.segments[0];
    if (!seg) return null;
    let text = '';
    try {
      text = fs.readFileSync(this.file(seg.seq), 'utf8');
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    const { lines, bad } = parseLines(text);
    if (bad) this.addDropped(bad, lines[0]?.ts ?? null, 'unreadable lines in the log spool');
    return { seg, lines };
  }

  remove(seg) {
    try {
      fs.rmSync(this.file(seg.seq), { force: true });
    } finally {
      const i = this.segments.indexOf(seg);
      if (i >= 0) {
        this.segments.splice(i, 1);
        this.bytes -= seg.bytes;
      }
    }
  }

  /** What is left of a segment after part of it was sent. */
  rewrite(seg, lines) {
    if (!lines.length) return this.remove(seg);
    const text = toText(lines);
    writeAtomic(this.file(seg.seq), text);
    this.bytes += Buffer.byteLength(text) - seg.bytes;
    seg.bytes = Buffer.byteLength(text);
    seg.lines = lines.length;
  }

  /** One marker for every line dropped since the last marker was sent; persisted at once. */
  addDropped(count, ts, reason) {
    if (!count) return;
    const m = this.marker ?? { id: '', count: 0, ts: null, reasons: [] };
    m.count += count;
    if (ts && (!m.ts || ts > m.ts)) m.ts = ts;
    if (reason && !m.reasons.includes(reason)) m.reasons.push(reason);
    m.id = this.newMarkerId();
    this.marker = m;
    this.saveMarker();
  }

  /** After the marker `sent` was stored: what was dropped since stays marked. */
  markerSent(sent) {
    const m = this.marker;
    if (!m) return;
    if (m.id === sent.id) this.marker = null;
    else {
      m.count -= sent.count;
      if (m.count <= 0) this.marker = null;
      else m.id = this.newMarkerId();
    }
    this.saveMarker();
  }

  /** A new id each time the count changes: a resend of the same marker is stored once. */
  newMarkerId() {
    return `${this.idPrefix ?? 'spool'}:dropped:${++this.markerSeq}`;
  }

  saveMarker() {
    const file = path.join(this.dir, MARKER_FILE);
    try {
      if (this.marker) writeAtomic(file, JSON.stringify(this.marker));
      else fs.rmSync(file, { force: true });
    } catch (err) {
      this.error = err; // the count stays in memory
    }
  }
}

module.exports = { LogSpool, segmentName, MARKER_FILE };
