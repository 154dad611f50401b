import { z } from 'zod';

export const REMOTE_NAMES = ['remote_mail', 'remote_admin', 'remote_rspamd', 'remote_haraka'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** GET /remotes.json: container name → URL of its mf-manifest.json (absolute or same-origin). */
export const RemotesManifest = z.record(z.string().regex(/^remote_[a-z]+$/), z.string().min(1));
export type RemotesManifest = z.infer<typeof RemotesManifest>;
