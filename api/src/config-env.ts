import { isIPv4 } from 'node:net';
import { z } from 'zod';

/** The shapes of config.ts's variables, shared by its parts (config-ldap.ts, config-oidc.ts). */
export const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);
export const optional = z.string().optional();

/** This machine's loopback: where a secret may travel in clear (tests, a sidecar on the same host). */
export const isLoopbackHost = (host: string) =>
  host === 'localhost' || (isIPv4(host) && host.startsWith('127.')) || host === '[::1]';
