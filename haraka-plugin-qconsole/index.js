'use strict';
// haraka-plugin-qconsole: the quarantine hand-off of the Quarantine Console.
//
// At the `queue` hook (after haraka-plugin-rspamd stored its verdict at data_post), mail whose
// Rspamd action is in [quarantine] actions, or whose score reaches [quarantine] score_threshold,
// is streamed with its envelope and verdict to the api (POST <url>/api/quarantine/ingest/,
// multipart meta + message) and accepted (250) only once the api answered 2xx: it is then held
// by the console and NOT forwarded. Any doubt (api down, non-2xx, timeout, an exception of ours)
// answers DENYSOFT (4xx) so the sending MTA keeps the message and retries: never fail open.
// Mail that is not quarantined continues (CONT) to the next queue plugin (queue/smtp_forward).
//
// List it in config/plugins after `rspamd` and before the delivering queue plugin. Its queue hook
// also has a lower priority number than default-priority plugins, so it runs first whatever the
// order of the queue plugins in that list.
//
// The console's rules (filters, control-panel filters, system rules) force Rspamd actions that
// haraka-plugin-rspamd does not carry out (lib/forced.js): at `data_post` (after the rspamd plugin)
// a forced reject is answered 550 5.7.1, a soft reject 451 4.7.1, a greylist 451 4.7.1 until the
// sender retries after [greylist] window (lib/greylist.js), add_header adds `X-Spam: Yes`; at
// `queue` a forced quarantine takes the quarantine path, discard is accepted (250) and dropped,
// accept/add_header/greylist (waited out) are delivered whatever the score.
//
// Whitelists and blacklists are decided per recipient at `queue` (lib/lists.js, from Rspamd's
// QC_LIST_* symbols): the quarantined recipients are ingested (only them in the meta), then
// transaction.rcpt_to becomes the delivered ones and the hook continues to smtp_forward.
//
// At the `rcpt` hook (in place of rcpt_to.in_host_list) it accepts mail only for the console's
// domains (GET <url>/api/mailstack/domains/, polled; lib/domain-list.js), refuses the rest with a
// 5xx (4xx while the api fails), and uses config/host_list only until the api has answered once
// (README: "Accepted domains").

const os = require('node:os');
const { OK, DENY, DENYSOFT } = require('haraka-constants');
const DSN = require('haraka-dsn');

const { parseSettings } = require('./lib/settings');
const { decide } = require('./lib/verdict');
const { buildMeta } = require('./lib/meta');
const { postIngest, storedId } = require('./lib/ingest');
const { toALabel } = require('./lib/domains');
const { DomainList } = require('./lib/domain-list');
const { forcedAction, queueDecision, ruleNames } = require('./lib/forced');
const { Greylist } = require('./lib/greylist');
const { recipientPlan } = require('./lib/lists');
const { address } = require('./lib/meta');
const { LogShipper } = require('./lib/log-shipper');

const QUEUE_PRIORITY = -10;
// After haraka-plugin-rspamd's data_post (default priority 0), which stores the verdict.
const DATA_POST_PRIORITY = 10;
const TEMPFAIL_TEXT = 'Temporary failure storing message, try again later';

exports.register = function () {
  this.load_qconsole_ini({ startup: true });
  this.load_host_list();
  this.domain_list = new DomainList({
    settings: () => this.settings,
    log: {
      info: (m) => this.loginfo(m),
      notice: (m) => this.lognotice(m),
      warn: (m) => this.logwarn(m),
      error: (m) => this.logerror(m),
    },
  });
  this.domain_list.loadStateFile();
  this.register_hook('queue', 'quarantine_or_pass', QUEUE_PRIORITY);
  this.register_hook('data_post', 'enforce_forced_action', DATA_POST_PRIORITY);
  this.register_hook('rcpt', 'accept_console_domains');
  this.start_log_shipper();
};

/**
 * Haraka's log lines to the console (lib/log-shipper.js; [logs] in qconsole.ini). Started at
 * register, in every process (each has its own boot id), so that start-up lines are shipped too.
 */
exports.start_log_shipper = function () {
  if (this.log_shipper || !this.settings.logs.enabled) return;
  if (!this.settings.token) return; // logged by load_qconsole_ini; nothing could be sent
  let hostname = '';
  try {
    hostname = String(this.config.get('me') ?? '').trim();
  } catch {
    /* os.hostname() below */
  }
  this.log_shipper = new LogShipper({
    settings: () => this.settings,
    hostname: hostname || os.hostname(),
    report: (level, msg) => this[`log${level}`](msg),
  }).start();
  this.register_hook('log', 'ship_log');
};

/**
 * The log hook: Haraka prints the line once every log hook called next(), so next() comes first;
 * the shipper only copies the line into memory (no I/O, no logging: a log from here would recurse).
 */
exports.ship_log = function (next, logger, item) {
  next();
  this.log_shipper?.push(item);
};

// Polling starts where connections are handled: the single process (nodes=0, the loopback stack
// and the container), or each cluster worker; a cluster master handles no connection.
exports.hook_init_master = function (next, server) {
  if (!server?.cluster) this.start_domains();
  next();
};

exports.hook_init_child = function (next) {
  this.start_domains();
  next();
};

exports.start_domains = function () {
  try {
    if (!this.settings.domains.enabled) this.loginfo('domains: [domains] enabled = false: host_list decides');
    this.domain_list.start();
  } catch (err) {
    this.logerror(`domains: cannot start polling: ${err?.message ?? err}`);
  }
};

exports.shutdown = function () {
  this.domain_list?.stop();
  this.log_shipper?.close();
};

/** config/host_list: the accepted domains until the api has answered once (QC_MAILSTACK_DOMAINS). */
exports.load_host_list = function () {
  try {
    const list = this.config.get('host_list', 'list', () => this.load_host_list());
    this.host_list = new Set(list.map(toALabel).filter(Boolean));
  } catch (err) {
    this.logerror(`host_list: ${err?.message ?? err}`);
    this.host_list ??= new Set();
  }
};

exports.load_qconsole_ini = function ({ startup = false } = {}) {
  try {
    const ini = this.config.get('qconsole.ini', { booleans: [] }, () => this.load_qconsole_ini());
    this.settings = parseSettings(ini, process.env);
    this.settings_error = null;
    if (this.greylist) this.greylist.configure(this.settings.greylist);
    else this.greylist = new Greylist(this.settings.greylist);
  } catch (err) {
    // At start-up a bad file stops Haraka (fail closed). A bad edit later (this runs from the
    // config watcher, where a throw would kill Haraka) defers every message that needs
    // quarantine until the file is fixed, rather than acting on settings nobody meant.
    if (startup) throw err;
    this.settings_error = err;
    this.logerror(`qconsole.ini: ${err.message}; deferring quarantined mail until it is fixed`);
    return;
  }
  if (!this.settings.token) {
    this.logerror('no ingest token ([api] token or QC_INGEST_TOKEN): every quarantined message will be deferred');
  }
  this.loginfo(
    `api ${this.settings.url.href}, actions ${[...this.settings.actions].join(',')}, ` +
      `score_threshold ${this.settings.scoreThreshold ?? 'off'}, timeout ${this.settings.timeoutMs} ms; ` +
      (this.settings.domains.enabled
        ? `domains every ${this.settings.domains.refreshMs} ms, saved to ${this.settings.domains.stateFile ?? '(nowhere)'}`
        : 'domains off (host_list)'),
  );
};

exports.tempfail = function () {
  return DSN.sys_unspecified(TEMPFAIL_TEXT, 451);
};

/**
 * RCPT: OK when the recipient's domain is one of the console's; 550 5.1.2 when not and the api
 * answered at the last attempt (or, before it ever answered, when host_list does not have it); 4xx
 * when not and the api is failing. A client allowed to relay (authenticated submission) is left
 * to the other plugins, as rcpt_to.in_host_list does. Any exception answers 4xx: never accept mail
 * for a domain nobody checked.
 */
exports.accept_console_domains = function (next, connection, params) {
  let called = false;
  const done = (code, msg) => {
    if (called) return;
    called = true;
    next(code, msg);
  };
  const tempfail = (err) => {
    try {
      connection.logerror(this, `rcpt check failed: ${err?.stack ?? err}`);
    } catch {
      /* logging must not change the answer */
    }
    done(DENYSOFT, DSN.sys_unspecified('Temporary failure checking the recipient, try again later', 451));
  };
  try {
    if (connection.relaying) return done();
    const rcpt = params[0];
    const domain = toALabel(rcpt?.host);
    const refuse = (why) => {
      connection.transaction?.results.add(this, { fail: `rcpt:${why}` });
      done(DENY, DSN.addr_bad_dest_system(`relaying denied: ${domain || 'that domain'} is not accepted here`, 550));
    };
    if (!domain) return refuse('no_domain');
    // One form downstream (Rspamd's list lookups, the per-recipient plan, ingest, the next hop): the
    // domain as its A-label, as the console stores it. Haraka keeps the typed form for address().
    const accept = () => {
      if (rcpt.original_host !== undefined) rcpt.original_host = domain;
      done(OK);
    };
    const fallback = () => {
      const ok = this.host_list?.has(domain);
      connection.logdebug(this, `${domain}: ${ok ? 'in' : 'not in'} host_list (no list from the api)`);
      return ok ? accept() : refuse('host_list');
    };
    if (!this.settings.domains.enabled) return fallback();
    this.domain_list
      .check(domain)
      .then((verdict) => {
        if (verdict === null) return fallback();
        if (verdict === 'refused') return refuse('not_console_domain');
        if (verdict === 'unconfirmed') {
          // Not in the last list, and the api cannot say whether it is one now: the sender retries.
          connection.transaction?.results.add(this, { msg: 'rcpt:unconfirmed' });
          return done(DENYSOFT, DSN.sys_unspecified(`cannot check ${domain} now, try again later`, 451));
        }
        connection.transaction?.results.add(this, { pass: 'rcpt' });
        accept();
      })
      .catch(tempfail)
      .catch(() => done(DENYSOFT, this.tempfail()));
  } catch (err) {
    tempfail(err);
  }
};

/**
 * data_post, after the rspamd plugin: the forced actions answered at the end of DATA (a DSN's code
 * is kept there; at the queue hook Haraka would turn any 4xx into 450). Anything else continues.
 * An exception answers 4xx: a rule that should have refused the mail never lets it through.
 */
exports.enforce_forced_action = function (next, connection) {
  let called = false;
  const done = (code, msg) => {
    if (called) return;
    called = true;
    next(code, msg);
  };
  try {
    const txn = connection.transaction;
    if (!txn) return done();
    const forced = forcedAction(txn.results.get('rspamd'));
    if (!forced) return done();
    const rules = ruleNames(forced);
    // Rspamd's message, naming the rules unless it does already (rspamd.lua names them for soft reject).
    const withRules = (text) => (forced.tokens.some((t) => text.includes(t)) ? text : `${text} (${rules})`);
    const note = (result, line) => {
      txn.results.add(this, { ...result, rules: forced.tokens });
      connection.loginfo(this, line);
    };
    if (forced.action === 'reject') {
      note({ fail: 'forced:reject' }, `rejected by ${rules}`);
      return done(DENY, DSN.sec_unauthorized(withRules(forced.message || 'Refused by local policy'), 550));
    }
    if (forced.action === 'soft_reject') {
      note({ msg: 'forced:soft_reject' }, `deferred by ${rules}`);
      return done(DENYSOFT, DSN.sec_unauthorized(withRules(forced.message || 'Deferred by local policy'), 451));
    }
    if (forced.action === 'greylist') {
      const { pass, waitMs } = this.greylist.check({
        ip: connection.remote?.ip,
        sender: address(txn.mail_from),
        recipients: (txn.rcpt_to ?? []).map(address),
      });
      if (pass) {
        note({ pass: 'greylist' }, `greylisted by ${rules}: retried after the window, delivered`);
        return done();
      }
      note({ msg: 'forced:greylist' }, `greylisted by ${rules}: deferred, retry in ${Math.ceil(waitMs / 1000)} s`);
      return done(DENYSOFT, DSN.sec_unauthorized(`Greylisted, try again later (${rules})`, 451));
    }
    if (forced.action === 'add_header') {
      txn.remove_header('X-Spam');
      txn.add_header('X-Spam', 'Yes');
      note({ msg: 'forced:add_header' }, `X-Spam header added by ${rules}`);
    }
    return done();
  } catch (err) {
    try {
      connection.logerror(this, `forced action failed: ${err?.stack ?? err}`);
    } catch {
      /* logging must not change the answer */
    }
    done(DENYSOFT, this.tempfail());
  }
};

exports.quarantine_or_pass = function (next, connection) {
  let called = false;
  const done = (code, msg) => {
    if (called) return;
    called = true;
    next(code, msg);
  };
  // One line per deferral: a warning (the sender keeps the mail and retries; an api outage is
  // reported once by the domain poller), an error only for an exception of ours. Kept in the
  // results as `msg`: an `err` there would have Haraka log the same thing again at error level.
  const defer = (why, level = 'warn') => {
    try {
      connection[`log${level}`](this, `deferred: ${why}`);
      connection.transaction?.results.add(this, { msg: `deferred: ${why}` });
    } catch {
      /* logging must not change the answer */
    }
    done(DENYSOFT, this.tempfail());
  };

  try {
    const txn = connection.transaction;
    if (!txn) return defer('no transaction');
    const verdict = txn.results.get('rspamd');
    const forced = forcedAction(verdict);
    const decision = queueDecision(forced) ?? decide(verdict, this.settings);
    if (decision.kind === 'discard') {
      // Accepted and dropped: the sender sees 250, nothing is delivered; the log keeps the rule.
      txn.results.add(this, { pass: 'discarded', msg: decision.reason });
      connection.loginfo(this, `discarded (${decision.reason}): accepted, not delivered`);
      return done(OK, 'Message accepted');
    }
    if (decision.kind === 'defer') return defer(decision.reason);

    // Per recipient: the lists of each (lib/lists.js), else the message's decision.
    const rcpts = txn.rcpt_to ?? [];
    const plan = recipientPlan({
      verdict,
      forced,
      base: decision,
      recipients: rcpts.map(address),
      lists: this.settings.lists,
    });
    const listed = plan.some((p) => p.list);
    if (listed) for (const p of plan) connection.loginfo(this, `${p.address}: ${p.kind} (${p.reason})`);
    const held = plan.filter((p) => p.kind === 'quarantine');
    const passed = rcpts.filter((_, i) => plan[i].kind === 'pass');
    if (!held.length) {
      txn.results.add(this, { msg: `pass: ${decision.reason}` });
      connection.loginfo(this, `not quarantined (${listed ? 'lists' : decision.reason})`);
      return done();
    }
    if (this.settings_error) return defer(`qconsole.ini: ${this.settings_error.message}`);
    if (!this.settings.token) return defer('no ingest token configured');

    const reason = [...new Set(held.map((p) => p.reason))].join('; ');
    const { url, token, timeoutMs } = this.settings;
    const meta = buildMeta(connection, txn, verdict);
    meta.rcpt_to = held.map((p) => p.address); // the console holds only the quarantined copies
    postIngest({ url, token, timeoutMs, meta, messageStream: txn.message_stream })
      .then(({ status, body }) => {
        const id = storedId(status, body);
        // Only the api's own "stored" (201 {id}) counts: a proxy's 200 maintenance page, a 204 or a
        // wrong path answered by another app would otherwise be taken as stored, and the mail lost.
        if (!id) return defer(`api answered HTTP ${status}: ${body.slice(0, 200).replace(/\s+/g, ' ')}`);
        // The api holds it now: answer first, so no bookkeeping error can turn this into a 4xx
        // (the retry would arrive under a new uuid and be stored twice). The recipients that are
        // not held go on to the delivering queue plugin (smtp_forward), which answers for them.
        if (passed.length) {
          txn.rcpt_to = passed;
          done();
        } else {
          done(OK, 'Message accepted');
        }
        try {
          txn.notes.qconsole = listed ? { id, reason, recipients: plan } : { id, reason };
          txn.results.add(this, { pass: 'quarantined', id });
          const rest = passed.length ? `; delivering to ${passed.map(address).join(', ')}` : '';
          connection.loginfo(
            this,
            `quarantined (${reason}) for ${meta.rcpt_to.join(', ')} as ${id || '?'}: HTTP ${status}${rest}`,
          );
        } catch {
          /* the answer is given */
        }
      })
      .catch((err) => defer(`ingest failed: ${err?.message ?? err}`))
      .catch(() => done(DENYSOFT, this.tempfail()));
  } catch (err) {
    defer(`exception: ${err?.stack ?? err}`, 'error');
  }
};
