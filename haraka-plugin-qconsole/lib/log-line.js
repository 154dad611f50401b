'use strict';
// One line of Haraka's log, as the `log` hook gets it ({level, data}), turned into the console's
// LogIngestLine (@qc/contracts haraka-logs.ts) minus its id. Pure: no I/O, never throws.
//
// `data` is the line already formatted by Haraka's logger (config/log.ini `format`):
//   default: `[INFO] [4E79AA5D-….1] [qconsole] quarantined …` (uuid `-` when there is none)
//   logfmt:  `level=INFO uuid=4E79AA5D-….1 origin=qconsole message="quarantined …" key=value …`
//   json:    `{"level":"INFO","uuid":"…","origin":"qconsole","message":"…","key":"value"}`
// Lines Haraka writes with logger.log() directly ("loglevel: INFO", "Starting up Haraka …") have
// none of this: the whole line is the message, with no uuid and no origin.

/** Haraka's levels that are never shipped: the SMTP dialogue and message/AUTH content. */
const NEVER_SHIPPED = new Set(['PROTOCOL', 'DATA']);

const MAX = { level: 16, origin: 128, uuid: 64, message: 8192 };

const DEFAULT_FORMAT = /^\[([A-Za-z]+)\] \[([^\]\s]*)\] \[([^\]]*)\] ?([\s\S]*)$/;

function clip(s, max) {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function uuidOf(raw) {
  const s = raw === undefined || raw === null ? '' : String(raw).trim();
  if (!s || s === '-' || s.length > MAX.uuid) return null;
  return s;
}

function originOf(raw) {
  const s = raw === undefined || raw === null ? '' : String(raw).trim();
  return s ? clip(s, MAX.origin) : null;
}

/** logfmt as Haraka's logger writes it: key=value or key="value with \" escapes". */
function parseLogfmt(data) {
  const out = {};
  const re = /([A-Za-z0-9_.-]+)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g;
  let m;
  let pos = 0;
  while ((m = re.exec(data))) {
    if (data.slice(pos, m.index).trim()) return null; // text outside key=value: not logfmt
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, (_, c) => ({ r: '\r', n: '\n' })[c] ?? c) : m[3];
    out[m[1]] = value;
    pos = re.lastIndex;
  }
  if (data.slice(pos).trim()) return null;
  return out;
}

const fieldText = (v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? ''));
const needsQuotes = /(^$|[ ="\\\r\n])/;

/** The structured fields beyond level/uuid/origin/message, kept in the message as key=value. */
function withFields(message, obj) {
  const extra = Object.keys(obj)
    .filter((k) => !['level', 'uuid', 'origin', 'message'].includes(k))
    .map((k) => {
      const v = fieldText(obj[k]);
      return needsQuotes.test(v) ? `${k}="${v.replace(/["\\]/g, '\\$&')}"` : `${k}=${v}`;
    });
  return [message, ...extra].filter(Boolean).join(' ');
}

function fromObject(obj) {
  return { uuid: uuidOf(obj.uuid), origin: originOf(obj.origin), message: withFields(fieldText(obj.message), obj) };
}

/**
 * @param {{level?: string, data?: unknown}} item  what the log hook gets as its third argument
 * @param {{hostname: string, now?: Date}} ctx
 * @returns {null | {ts: string, level: string, hostname: string, uuid: string|null, origin: string|null, message: string}}
 *   null for PROTOCOL and DATA lines (never shipped)
 */
function toLine(item, { hostname, now = new Date() }) {
  const level = String(item?.level ?? 'INFO')
    .trim()
    .toUpperCase()
    .replace(/^LOG/, '');
  if (NEVER_SHIPPED.has(level)) return null;
  const data = typeof item?.data === 'string' ? item.data : fieldText(item?.data);
  let parsed = null;
  const d = DEFAULT_FORMAT.exec(data);
  if (d && d[1].toUpperCase() === level) {
    parsed = { uuid: uuidOf(d[2]), origin: originOf(d[3]), message: d[4] };
  } else if (data.startsWith('{')) {
    try {
      const obj = JSON.parse(data);
      if (obj && typeof obj === 'object' && !Array.isArray(obj) && 'message' in obj) parsed = fromObject(obj);
    } catch {
      /* not JSON: the raw line */
    }
  } else if (data.startsWith('level=')) {
    const obj = parseLogfmt(data);
    if (obj && 'message' in obj) parsed = fromObject(obj);
  }
  parsed ??= { uuid: null, origin: null, message: data };
  return {
    ts: now.toISOString(),
    level: clip(level || 'INFO', MAX.level),
    hostname,
    uuid: parsed.uuid,
    origin: parsed.origin,
    message: clip(parsed.message, MAX.message),
  };
}

module.exports = { toLine, parseLogfmt, NEVER_SHIPPED, MAX };
