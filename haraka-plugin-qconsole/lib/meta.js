'use strict';
// Builds the ingest `meta` document (api contract: uuid, mail_from, rcpt_to[], remote_ip, helo,
// received_at, rspamd {action, score, required_score, symbols}). Pure apart from the clock.

const { normalizeVerdict } = require('./verdict');

// @haraka/email-address 3.x: `.address` is a string property (older Haraka: a method).
function address(a) {
  if (!a) return '';
  const v = typeof a.address === 'function' ? a.address() : a.address;
  return typeof v === 'string' ? v : '';
}

function buildMeta(connection, txn, rspamdResult, now = new Date()) {
  return {
    uuid: String(txn.uuid),
    mail_from: address(txn.mail_from), // '' = the null sender <>
    rcpt_to: (txn.rcpt_to ?? []).map(address),
    remote_ip: String(connection.remote?.ip ?? '').slice(0, 64),
    helo: String(connection.hello?.host ?? '').slice(0, 255),
    received_at: now.toISOString(),
    rspamd: normalizeVerdict(rspamdResult),
  };
}

module.exports = { buildMeta, address };
