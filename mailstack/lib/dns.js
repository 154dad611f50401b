'use strict';
// A tiny DNS server on 127.0.0.1 (UDP) for the loopback stack's tests and the e2e run
// (startMailStack({ dns: { port } })): it answers TXT questions for the names it is given and NXDOMAIN for everything else, so Rspamd
// checks SPF against a test policy without leaving the machine.

const dgram = require('node:dgram');

const TYPE_TXT = 16;
const RCODE_NXDOMAIN = 3;

/** The question of a query: its name (lower case), type, and where it ends; null when malformed. */
function readQuestion(msg) {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return null;
  const labels = [];
  let i = 12;
  while (i < msg.length) {
    const len = msg[i];
    if (len === 0) break;
    if (len > 63 || i + 1 + len > msg.length) return null; // no compression in a question we accept
    labels.push(msg.toString('latin1', i + 1, i + 1 + len));
    i += 1 + len;
  }
  if (i + 5 > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(i + 1), end: i + 5 };
}

/** A TXT record's data: character-strings of at most 255 octets each. */
function txtData(text) {
  const bytes = Buffer.from(text, 'utf8');
  const parts = [];
  for (let o = 0; o < bytes.length || o === 0; o += 255) {
    const chunk = bytes.subarray(o, o + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

function answer(query, q, records) {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD copied
  header[3] = 0x80 | (records ? 0 : RCODE_NXDOMAIN); // RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records ? records.length : 0, 6);
  const question = query.subarray(12, q.end); // as asked (same case)
  const rrs = (records ?? []).map((text) => {
    const data = txtData(text);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6); // TTL
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, question, ...rrs]);
}

/**
 * @param {Record<string, string[]>} txt  name → its TXT records, e.g. {'spf-fail.test': ['v=spf1 ip4:192.0.2.1 -all']}
 * @returns {Promise<{port: number, queries: {name: string, type: number}[], close: () => Promise<void>}>}
 */
async function startDnsServer(txt) {
  const zone = new Map(Object.entries(txt).map(([name, records]) => [name.toLowerCase(), records]));
  const queries = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const q = readQuestion(msg);
    if (!q) return;
    queries.push({ name: q.name, type: q.type });
    const records = q.type === TYPE_TXT ? zone.get(q.name) : undefined;
    // A name we know with another type: an empty answer (NOERROR); anything else: NXDOMAIN.
    const reply = answer(msg, q, records ?? (zone.has(q.name) ? [] : null));
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', resolve);
  });
  return {
    port: socket.address().port,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

module.exports = { startDnsServer };
