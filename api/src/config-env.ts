import { z } from 'zod';

/** The shapes of config.ts's variables, shared by its parts (config-ldap.ts). */
export const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);
export const optional = z.string().optional();
