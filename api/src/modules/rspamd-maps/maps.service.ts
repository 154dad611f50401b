import type { FilterType, RspamdListName } from '@qc/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { buildApanelMap, buildFilterMaps, buildSenderListsMap, buildSystemMap, type MapSpec } from './map-builder';
import {
  enabledApanelFilters,
  enabledFilters,
  enabledSystemRules,
  listVersion,
  recordFetch,
  senderListEntries,
  type ListVersion,
} from './maps.repository';

const sha256 = (data: string) => createHash('sha256').update(data).digest();

/** Header of the 401: Rspamd (and curl) answer it with the credentials of the map URL. */
export const BASIC_CHALLENGE = 'Basic realm="rspamd-maps", charset="UTF-8"';

/** The socket address as the allow-list reads it: an IPv4-mapped IPv6 address is its IPv4 address. */
export function plainAddress(address: string | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  return isIP(ip) ? ip : null;
}

export function createAllowList(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [addr = '', bits] = entry.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(addr, bits === undefined ? (type === 'ipv6' ? 128 : 32) : Number(bits), type);
  }
  return (address) => {
    const ip = plainAddress(address);
    return ip !== null && list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Who may fetch the maps: the secret is set (else 503), the connection comes from an allowed
 * address (the socket's, never X-Forwarded-For: 403), and the request carries the secret as the
 * password of HTTP basic auth, compared in constant time (401).
 */
export function checkMapsAccess(
  config: Config['rspamdMaps'],
  allowed: (address: string | undefined) => boolean,
  socketAddress: string | undefined,
  authorization: string | undefined,
): void {
  if (!config.token) {
    throw new HttpError(503, 'maps_disabled', 'The Rspamd maps are disabled: QC_RSPAMD_MAPS_TOKEN is unset.');
  }
  if (!allowed(socketAddress)) {
    throw new HttpError(403, 'forbidden', 'This address may not fetch the Rspamd maps (QC_RSPAMD_MAPS_ALLOW).');
  }
  const challenge = { 'www-authenticate': BASIC_CHALLENGE };
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '');
  if (!match) {
    throw new HttpError(401, 'not_authenticated', 'The maps secret was not provided.', undefined, challenge);
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const password = decoded.slice(decoded.indexOf(':') + 1); // the user name is not checked
  if (!decoded.includes(':') || !timingSafeEqual(sha256(password), sha256(config.token))) {
    throw new HttpError(401, 'token_invalid', 'The maps secret is not valid.', undefined, challenge);
  }
}

export interface BuiltMap extends ListVersion {
  body: string;
  etag: string;
}

interface ListMaps extends ListVersion {
  maps: Map<string, { body: string; etag: string }>;
}

/**
 * The throttle of the fetch records: Rspamd asks about 30 maps every few seconds; the database hears
 * of a map at once when it got a new version (what "live" reads), else at most every 30 s.
 */
export const FETCH_RECORD_INTERVAL_MS = 30_000;

/**
 * The maps of each list, built once per list version (all of a list at once: one query) and kept
 * until the version changes. A request reads the version first, then the rules: a change committed
 * in between gives a newer body under the older version, rebuilt at the next request, never an
 * older body under the newer version. A database error propagates (5xx): Rspamd keeps its last good
 * copy; a partial body is never served.
 */
export function createMapSource(db: Db) {
  const cache = new Map<RspamdListName, ListMaps>();
  const building = new Map<string, Promise<ListMaps>>();
  const recorded = new Map<string, { version: number; at: number }>();

  async function build(list: RspamdListName, v: ListVersion): Promise<ListMaps> {
    let bodies: Map<string, string>;
    if (list === 'apanel-filters') {
      bodies = new Map([['apanel-filters.json', buildApanelMap(v.version, await enabledApanelFilters(db))]]);
    } else if (list === 'system-rules') {
      bodies = new Map([['system-rules.json', buildSystemMap(v.version, await enabledSystemRules(db))]]);
    } else if (list === 'sender-lists') {
      bodies = new Map([['sender-lists.json', buildSenderListsMap(v.version, await senderListEntries(db))]]);
    } else {
      const type = list.slice('filters-'.length) as FilterType;
      bodies = buildFilterMaps(type, v.version, await enabledFilters(db, type));
    }
    const maps = new Map(
      [...bodies].map(([name, body]) => [name, { body, etag: `"${sha256(body).toString('base64url')}"` }]),
    );
    return { ...v, maps };
  }

  return {
    async get(spec: MapSpec): Promise<BuiltMap> {
      const v = await listVersion(db, spec.list);
      let entry = cache.get(spec.list);
      if (!entry || entry.version !== v.version || entry.changedAt !== v.changedAt) {
        const key = `${spec.list}@${v.version}@${v.changedAt}`;
        let pending = building.get(key);
        if (!pending) {
          pending = build(spec.list, v).finally(() => building.delete(key));
          building.set(key, pending);
        }
        entry = await pending;
        const current = cache.get(spec.list);
        if (!current || current.version <= entry.version) cache.set(spec.list, entry);
      }
      const map = entry.maps.get(spec.name);
      if (!map) throw new Error(`map ${spec.name} was not built with its list ${spec.list}`);
      return { ...map, version: entry.version, changedAt: entry.changedAt };
    },

    /**
     * Rspamd holds `version` of `spec` (a GET, or a 304): written when the version differs from the
     * last record of this process or FETCH_RECORD_INTERVAL_MS has passed. Never awaited by the
     * answer; a failure is only logged.
     */
    recordFetch(spec: MapSpec, version: number, log: { warn(obj: object, msg: string): void }, now = Date.now()) {
      const last = recorded.get(spec.name);
      if (last && last.version === version && now - last.at < FETCH_RECORD_INTERVAL_MS) return null;
      recorded.set(spec.name, { version, at: now });
      return recordFetch(db, { map: spec.name, list: spec.list, version, at: now }).catch((err: unknown) => {
        recorded.delete(spec.name);
        log.warn({ err }, `cannot record the fetch of the Rspamd map ${spec.name}`);
      });
    },
  };
}

export type MapSource = ReturnType<typeof createMapSource>;

/** RFC 9110 §13.1.3: If-Modified-Since with a valid date, compared at one-second resolution. */
export function notModifiedSince(header: string | undefined, changedAt: number): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(changedAt / 1000) * 1000 <= since;
}
