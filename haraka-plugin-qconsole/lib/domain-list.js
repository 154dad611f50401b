'use strict';
// The console's domain list as the rcpt hook sees it: polled from the api every [domains] refresh
// seconds (If-None-Match), kept in memory, saved to [domains] state_file after each change so that
// a restart while the api is down starts from it. Failures keep the list there is and are logged
// once per change of state, not at every poll. Nothing here throws or rejects: a throw in a timer
// would stop Haraka.

const { fetchDomains, readStateFile, writeStateFile } = require('./domains');

/** A miss (a domain not in the list) asks the api again at once, at most this many in a burst ... */
const MISS_BURST = 5;
/** ... and then one per this many ms: a domain created a moment ago is accepted at once, while a
 * flood of mail for foreign domains costs the api at most one request a second. */
const MISS_REFILL_MS = 1000;
const MAX_NAMES_LOGGED = 10;

function describeChange(before, after) {
  if (!before) return '';
  const added = [...after].filter((d) => !before.has(d)).map((d) => `+${d}`);
  const removed = [...before].filter((d) => !after.has(d)).map((d) => `-${d}`);
  const all = [...added, ...removed];
  if (!all.length) return '';
  const more = all.length > MAX_NAMES_LOGGED ? `, … ${all.length - MAX_NAMES_LOGGED} more` : '';
  return ` (${all.slice(0, MAX_NAMES_LOGGED).join(', ')}${more})`;
}

class DomainList {
  /**
   * @param {object} o
   * @param {() => object} o.settings  the plugin's current settings (edits apply at the next poll)
   * @param {{info: Function, notice: Function, warn: Function, error: Function}} o.log
   */
  constructor({ settings, log }) {
    this.settings = settings;
    this.log = log;
    /** @type {Set<string> | null} null: never obtained (the caller falls back to host_list) */
    this.domains = null;
    /** 'api' (the api sent or confirmed it) or 'file' (read at start, not confirmed yet) */
    this.source = null;
    this.etag = '';
    this.savedKey = '';
    this.apiAnswering = false;
    this.problem = undefined; // the failure logged last; null once the api answered
    this.saveProblem = null;
    this.inflight = null;
    this.saving = Promise.resolve();
    this.timer = null;
    this.started = false;
    this.stopped = false;
    this.abort = new AbortController();
    this.missTokens = MISS_BURST;
    this.missAt = Date.now();
  }

  /** Reads the list saved by an earlier run (at start, before the api has answered). */
  loadStateFile() {
    const file = this.settings().domains.stateFile;
    if (!file) return;
    try {
      const saved = readStateFile(file);
      if (!saved) return;
      this.domains = new Set(saved.domains);
      this.source = 'file';
      this.etag = saved.etag;
      this.savedKey = this.keyOf(saved.domains, saved.etag);
      this.log.info(
        `domains: ${saved.domains.length} from ${file} (saved ${saved.savedAt || '?'}) until the api answers`,
      );
    } catch (err) {
      this.log.error(`domains: ignoring ${file}: ${err.message}`);
    }
  }

  /** Polls now and then every [domains] refresh seconds; the timer never keeps Haraka running. */
  start() {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tick().catch(() => {});
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
  }

  async tick() {
    this.timer = null;
    if (this.stopped) return;
    let refreshMs = 10000;
    try {
      const s = this.settings().domains;
      refreshMs = s.refreshMs;
      if (s.enabled) await this.refresh();
    } catch (err) {
      this.log.error(`domains: poll failed: ${err?.message ?? err}`);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick().catch(() => {}), refreshMs);
    this.timer.unref?.();
  }

  /** One request at a time: callers during a request share its outcome. Resolves true when it answered. */
  refresh() {
    this.inflight ??= this.fetchOnce().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /**
   * Is `domain` (A-label, lower case) one of the console's? A miss while the api answers asks it
   * again first (a domain just created).
   * @returns {Promise<'accepted' | 'refused' | 'unconfirmed' | null>} 'refused' when the api
   *   answered at the last attempt; 'unconfirmed' when it did not (a refusal would be permanent,
   *   for a domain perhaps created since); null when no list was ever obtained (host_list decides)
   */
  async check(domain) {
    if (!this.domains) return null;
    if (this.domains.has(domain)) return 'accepted';
    if (this.settings().domains.enabled && this.apiAnswering && (this.inflight || this.takeMissToken())) {
      await this.refresh();
    }
    if (this.domains.has(domain)) return 'accepted';
    return this.apiAnswering ? 'refused' : 'unconfirmed';
  }

  takeMissToken() {
    const now = Date.now();
    this.missTokens = Math.min(MISS_BURST, this.missTokens + (now - this.missAt) / MISS_REFILL_MS);
    this.missAt = now;
    if (this.missTokens < 1) return false;
    this.missTokens -= 1;
    return true;
  }

  keyOf(domains, etag) {
    return `${etag}\n${domains.join('\n')}`;
  }

  describeKept() {
    if (!this.domains) return 'using host_list until the api answers once';
    const from = this.source === 'file' ? 'the saved file' : 'the api';
    return `keeping the last list (${this.domains.size} domains, from ${from})`;
  }

  async fetchOnce() {
    const s = this.settings();
    const { url, timeoutMs } = s.domains;
    try {
      if (!s.token) throw new Error('no service token ([api] token or QC_INGEST_TOKEN)');
      const answer = await fetchDomains({
        url,
        token: s.token,
        timeoutMs,
        etag: this.domains ? this.etag : '',
        signal: this.abort.signal,
      });
      if (this.stopped) return false;
      if (answer.notModified) {
        this.source = 'api';
      } else {
        this.apply(answer.domains, answer.etag);
      }
      if (this.problem) this.log.notice(`domains: the api answers again (${this.domains.size} domains)`);
      this.problem = null;
      this.apiAnswering = true;
      return true;
    } catch (err) {
      if (this.stopped) return false;
      this.apiAnswering = false;
      const reason = err?.message ?? String(err);
      if (reason !== this.problem) {
        this.log.error(`domains: cannot get the list from ${url.href}: ${reason}; ${this.describeKept()}`);
        this.problem = reason;
      }
      return false;
    }
  }

  apply(domains, etag) {
    const before = this.domains;
    const next = new Set(domains);
    const changed = !before || before.size !== next.size || [...next].some((d) => !before.has(d));
    this.domains = next;
    this.source = 'api';
    this.etag = etag;
    if (changed || this.problem === undefined) {
      this.log.info(`domains: ${next.size} from the api${describeChange(before, next)}`);
      if (!next.size) this.log.warn('domains: the console has no domains: every recipient is refused');
    }
    this.save(domains, etag);
  }

  /** Saves in the background, one write after the other; only what differs from the file. */
  save(domains, etag) {
    const file = this.settings().domains.stateFile;
    const key = this.keyOf(domains, etag);
    if (!file || key === this.savedKey) return;
    this.saving = this.saving.then(async () => {
      try {
        await writeStateFile(file, { domains, etag });
        this.savedKey = key;
        if (this.saveProblem) this.log.notice(`domains: saved to ${file} again`);
        this.saveProblem = null;
      } catch (err) {
        if (err.message !== this.saveProblem) {
          this.log.error(`domains: cannot save the list to ${file}: ${err.message} (a restart would not find it)`);
          this.saveProblem = err.message;
        }
      }
    });
  }
}

module.exports = { DomainList, MISS_BURST, MISS_REFILL_MS };
