import type { Role } from '@qc/contracts';

/**
 * Row types of every table. Timestamps are epoch milliseconds (integers in both dialects, so
 * comparisons and keyset cursors behave the same); flags are 0/1 integers (SQLite has no boolean).
 */
export interface UsersTable {
  id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: Role;
  domain_id: string | null;
  is_external: number;
  is_active: number;
  mfa_enabled: number;
  mfa_secret: string | null;
  date_joined: number;
}

export interface DomainsTable {
  id: string;
  name: string;
  description: string;
  created_at: number;
  updated_at: number;
}

/** One row per refresh token; the rows of one sign-in share `family_id`. */
export interface SessionsTable {
  id: string;
  user_id: string;
  family_id: string;
  refresh_hash: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  replaced_by: string | null;
  /** The pair issued at rotation, encrypted with a key only the old refresh token yields. */
  grace_pair: string | null;
  revoked_at: number | null;
}

export const RECIPIENT_STATUSES = ['pending', 'releasing', 'released', 'release_failed', 'deleted'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export interface QuarantineMessagesTable {
  id: string;
  uuid: string | null;
  received_at: number;
  sender: string;
  subject: string | null;
  score: number | null;
  action: string;
  size: number;
  message_id: string | null;
  created_at: number;
}

/** Status lives per recipient (DESIGN §4); received_at is copied here for the keyset indexes. */
export interface QuarantineRecipientsTable {
  message_id: string;
  recipient: string;
  domain: string;
  status: RecipientStatus;
  received_at: number;
  updated_at: number;
}

export type CountScope = 'global' | 'domain';

/** Dashboard read model: recipient rows per scope and status, kept in the writer's transaction. */
export interface QuarantineCountsTable {
  scope: CountScope;
  scope_id: string;
  status: RecipientStatus;
  n: number;
}

export interface Database {
  users: UsersTable;
  domains: DomainsTable;
  sessions: SessionsTable;
  quarantine_messages: QuarantineMessagesTable;
  quarantine_recipients: QuarantineRecipientsTable;
  quarantine_counts: QuarantineCountsTable;
}
