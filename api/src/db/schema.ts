import type {
  DigestFrequency,
  DigestLanguage,
  HistoryAction,
  HistoryTargetKind,
  Role,
  UserSource,
} from '@qc/contracts';

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
  /** Enabled TOTP secret, encrypted (lib/secret-box). */
  mfa_secret: string | null;
  date_joined: number;
  /** Secret between setup and the first code, encrypted. */
  mfa_pending_secret: string | null;
  /** Last accepted TOTP time step: a step at or below it is refused (replay). */
  mfa_last_step: number | null;
  // 0013_administration
  /** Two-factor must be set up at the next sign-in before any access (an admin's choice). */
  mfa_required: number;
  /** When the last sign-in issued tokens; null: never. */
  last_login: number | null;
  /** When mfa_pending_secret was made: an unconfirmed set-up expires. */
  mfa_pending_at: number | null;
  /** When sessions were last revoked (credentials changed): sign-in challenges issued before are refused. */
  credentials_at: number | null;
  // 0027_user_addresses
  /** Where the account comes from: made in the console, the directory (LDAP) or the SSO provider. */
  source: UserSource;
  /** The source's name for the person (an LDAP DN); null for a local account. */
  external_id: string | null;
}

/** 0027: every address whose mail is the user's; position 0 is the primary (users.email). One owner each. */
export interface UserAddressesTable {
  address: string;
  user_id: string;
  position: number;
}

/** 0028: a single sign-on started at the provider and not back yet (single use). */
export interface OidcFlowsTable {
  state_hash: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  created_at: number;
  expires_at: number;
}

/** 0028: the single-use ticket a single sign-on's callback hands the browser. */
export interface SsoTicketsTable {
  ticket_hash: string;
  browser_hash: string;
  user_id: string;
  /** 1: the provider did a second factor and QC_OIDC_TRUST_MFA lets it count. */
  mfa_met: number;
  created_at: number;
  expires_at: number;
}

/** The invitation link e-mailed to a user created without a password (HMAC of its token). */
export interface UserInvitationsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
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

export const RECIPIENT_STATUSES = [
  'pending',
  'releasing',
  'released',
  'release_failed',
  'release_unknown',
  'deleted',
] as const;
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
  // 0003_quarantine: every e-mail field of spec §3 (JSON columns hold arrays).
  envelope_from: string;
  required_score: number | null;
  header_date: number | null;
  helo: string | null;
  ip_address: string | null;
  country: string | null;
  sender_domain: string | null;
  mime_user: string | null;
  mime_domain: string | null;
  dkim: string | null;
  spf: string | null;
  dedup_key: string | null;
  recipient_count: number;
  attachments: string;
  urls: string;
  symbols: string;
  headers: string;
  body_text: string | null;
  body_html: string | null;
  body_truncated: number;
  // 0004_statistics_retention: when retention removed the raw bytes and bodies (null: not purged).
  raw_purged_at: number | null;
  // 0010_envelope_to: the envelope recipients as Haraka received them (JSON array), when the case of
  // any differs from the stored (lower-cased) address; null: as stored.
  envelope_to: string | null;
  // 0015_sender_lists: what the console had Rspamd learn from this message (null: nothing yet).
  learned_as: 'spam' | 'ham' | null;
  learned_at: number | null;
  /** The e-mail of who asked, as it was. */
  learned_by: string | null;
  // 0021_search_attachments_urls: attachment names and body URLs, one a line, for the search.
  search_extra: string;
}

/** The original bytes of a quarantined message. */
export interface QuarantineRawTable {
  message_id: string;
  sha256: string;
  data: Buffer;
}

export type DeliveryOutcome =
  'in_progress' | 'released' | 'partially_released' | 'relay_refused' | 'relay_unreachable' | 'release_unknown';

/** One release attempt (accepted/rejected: JSON arrays of addresses). */
export interface QuarantineDeliveriesTable {
  id: string;
  message_id: string;
  actor_id: string | null;
  actor_email: string;
  started_at: number;
  finished_at: number | null;
  outcome: DeliveryOutcome;
  response: string | null;
  accepted: string;
  rejected: string;
}

/**
 * Append-only audit trail: every download, release and delete of quarantined mail, and (0013)
 * every administration change and security event, about a user or a domain (`target_*`).
 */
export interface HistoryTable {
  id: string;
  created_at: number;
  actor_id: string | null;
  actor_email: string;
  actor_role: Role;
  actor_domain: string | null;
  action: HistoryAction;
  /** The e-mail of a mail action; null for the others. */
  email_id: string | null;
  result: 'success' | 'failure';
  code: string | null;
  ip_address: string | null;
  target_kind: HistoryTargetKind | null;
  target_id: string | null;
  /** The target's e-mail or name when the row was written. */
  target_label: string | null;
  /** JSON array of the names of the fields an update changed. */
  changes: string | null;
}

/** Who reads a history row besides admins: 'u:<user id>' or 'd:<domain>' (migration 0012). */
export interface HistoryAudienceTable {
  audience: string;
  created_at: number;
  history_id: string;
}

/** Status lives per recipient (DESIGN §4); received_at is copied here for the keyset indexes. */
export interface QuarantineRecipientsTable {
  message_id: string;
  recipient: string;
  domain: string;
  status: RecipientStatus;
  received_at: number;
  updated_at: number;
  /** The claim while releasing, then the last delivery attempt (quarantine_deliveries.id). */
  delivery_id: string | null;
}

export type CountScope = 'global' | 'domain';
/** The rollup also keeps each recipient's days (scope_id: the lower-cased address); the counters do not. */
export type DailyScope = CountScope | 'recipient';

/** Dashboard read model: recipient rows per scope and status, kept in the writer's transaction. */
export interface QuarantineCountsTable {
  scope: CountScope;
  scope_id: string;
  status: RecipientStatus;
  n: number;
}

/**
 * Statistics read model: one row per scope and UTC day (`day`: epoch ms of its midnight), kept in the
 * writer's transaction. Counts are recipient rows: quarantined and risk_* on the day received,
 * released / deleted on the day of that change.
 */
export interface QuarantineDailyTable {
  scope: DailyScope;
  scope_id: string;
  day: number;
  quarantined: number;
  released: number;
  deleted: number;
  risk_low: number;
  risk_medium: number;
  risk_high: number;
  risk_critical: number;
}

export type TopsKind = 'sender' | 'recipient' | 'symbol';

/** Migration 0020: recipient rows per scope, UTC day, kind and item (sender, recipient or symbol). */
export interface QuarantineTopsTable {
  scope: DailyScope;
  scope_id: string;
  kind: TopsKind;
  day: number;
  item: string;
  n: number;
}

/** A database claim per scheduled job, so one replica runs it at a time (compare-and-set on locked_until). */
export interface JobLocksTable {
  name: string;
  /** Epoch ms until which the current holder owns the job; 0 when free. */
  locked_until: number;
  owner: string | null;
  started_at: number | null;
  finished_at: number | null;
  /** The last run's outcome (JSON), for operators. */
  last_result: string | null;
}

/** Stored as HMAC-SHA256 (key derived from QC_SECRET_KEY); single use. */
export interface MfaBackupCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** One row per partial token presented to verify-totp (by its jti). */
export interface MfaPartialTokensTable {
  jti: string;
  user_id: string;
  failures: number;
  /** Set when it yielded a session, or when it was burned by too many wrong codes. */
  used_at: number | null;
  expires_at: number;
}

export interface EmailChangesTable {
  id: string;
  user_id: string;
  new_email: string;
  /** HMAC-SHA256 of the token sent by e-mail. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UserPreferencesTable {
  user_id: string;
  theme_mode: 'light' | 'dark' | 'system';
  default_page_size: number;
  updated_at: number;
}

export interface FeedbackTable {
  id: string;
  user_id: string | null;
  type: 'bug' | 'suggestion' | 'question' | 'other';
  message: string;
  email: string | null;
  created_at: number;
}

export interface FeedbackImagesTable {
  id: string;
  feedback_id: string;
  position: number;
  /** Detected from the bytes, never taken from the upload's declared type. */
  mime: string;
  size: number;
  data: Buffer;
  /** 1: re-encoded at upload, served as stored; 0: stored before that, re-encoded when served (0024). */
  reencoded: number;
}

/** Attempt counters shared by every api process: a fixed window per key (`ip:…`, `account:…`, …). */
export interface RateLimitsTable {
  key: string;
  /** Attempts since the window opened (the first attempt), the current one included. */
  count: number;
  /** Epoch ms: from then on the next attempt opens a new window. */
  window_ends_at: number;
}

/** Issue 17: a filter of one family (migration 0014). */
export interface RspamdFiltersTable {
  id: string;
  type: 'domains' | 'ips' | 'users' | 'special';
  value: string;
  pattern_type: 'exact' | 'wildcard' | 'regex' | 'cidr';
  action: 'reject' | 'accept' | 'add_header' | 'quarantine';
  description: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  created_by_id: string | null;
  /** The creator's e-mail as it was (kept when the account is deleted). */
  created_by_email: string | null;
}

/** A control-panel filter: envelope sender → recipient pair; owner null = system. */
export interface ApanelFiltersTable {
  id: string;
  owner_id: string | null;
  from_pattern: string;
  to_pattern: string;
  action: 'reject' | 'accept' | 'add_header' | 'discard' | 'quarantine';
  description: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  created_by_id: string | null;
  created_by_email: string | null;
}

/** A system rule: every non-null pattern must match (at least one is set). */
export interface SystemRulesTable {
  id: string;
  name: string;
  from_pattern: string | null;
  subject_pattern: string | null;
  to_pattern: string | null;
  ip_pattern: string | null;
  action: 'reject' | 'add_header' | 'greylist' | 'soft_reject' | 'accept';
  enabled: number;
  created_at: number;
  updated_at: number;
  created_by_id: string | null;
  created_by_email: string | null;
}

/** One row per list Rspamd fetches (RSPAMD_LISTS): bumped in the transaction of every change. */
export interface RspamdListsTable {
  name: string;
  version: number;
  changed_at: number;
}

/** Per map served to Rspamd: when it was last fetched and the list version it then got. */
export interface RspamdMapFetchesTable {
  map: string;
  list: string;
  fetched_at: number;
  version: number;
}

/**
 * Issue 18: a whitelist or blacklist entry of one owner (migration 0015). One row per owner and
 * address across both kinds; owner_key is `user:<id>`, `domain:<id>` or `global`.
 */
export interface SenderListsTable {
  id: string;
  kind: 'whitelist' | 'blacklist';
  scope: 'user' | 'domain' | 'global';
  /** Stored form: lower case, domain as IDNA A-label; `@domain` for a whole domain. */
  address: string;
  user_id: string | null;
  domain_id: string | null;
  owner_key: string;
  created_at: number;
  created_by_id: string | null;
  created_by_email: string | null;
}

/** One Haraka log line (0016_haraka_logs). `ts`: when Haraka logged it (epoch ms). */
export interface HarakaLogsTable {
  id: string;
  ts: number;
  severity: 'INFO' | 'NOTICE' | 'WARN' | 'ERROR';
  /** Lower case. */
  hostname: string;
  /** Upper case: the connection's, or `<connection>.<n>` for its transaction n. */
  uuid: string | null;
  /** The connection part of uuid (indexed: a connection's lines with its transactions'). */
  conn_uuid: string | null;
  origin: string | null;
  message: string;
  /** hostname + the shipper's line id: a resend is stored once. */
  line_key: string;
}

/** Log rollups kept at ingest: lines per UTC day and severity, per dimension (`key`: hour 00–23, host, origin). */
export interface HarakaLogCountsTable {
  dim: 'day' | 'hour' | 'host' | 'origin';
  /** Epoch ms of the UTC midnight. */
  day: number;
  key: string;
  severity: 'INFO' | 'NOTICE' | 'WARN' | 'ERROR';
  n: number;
}

/** A sender's retry (another Haraka uuid) matched to a message stored earlier under its first uuid. */
export interface QuarantineMessageUuidsTable {
  uuid: string;
  message_id: string;
  created_at: number;
}

/** A user's own notification settings (0017_notifications); no row: the defaults. */
export interface NotificationSettingsTable {
  user_id: string;
  enabled: number;
  frequency: DigestFrequency;
  /** "HH:MM" in time_zone. */
  send_time: string;
  /** IANA name. */
  time_zone: string;
  /** The e-mail's language. */
  language: DigestLanguage;
  /** A domain_admin's digest of their domain's pending quarantine. */
  domain_digest: number;
  updated_at: number;
}

/** The one row (id 1) of the defaults an admin set for everyone; none: the built-in ones. */
export interface NotificationDefaultsTable {
  id: number;
  enabled: number;
  frequency: DigestFrequency;
  send_time: string;
  time_zone: string;
  language: DigestLanguage;
  updated_at: number;
  updated_by: string | null;
}

/** One digest period of one user: the claim (status sending), then what came of it. */
export interface DigestSendsTable {
  user_id: string;
  kind: 'user' | 'domain';
  /** Epoch ms of the period's start (the user's wall clock, at send_time). */
  period_start: number;
  status: 'sending' | 'sent' | 'empty' | 'failed';
  claimed_by: string | null;
  claimed_at: number;
  attempts: number;
  /** Newest arrival (received_at) the digest covered; the next one lists only later arrivals. */
  cutoff: number | null;
  item_count: number | null;
  sent_at: number | null;
  /** The relay's refusal of the latest attempt. */
  error: string | null;
}

/** A digest link whose POST acted (single use), and what it did (DigestActOutcome as JSON). */
export interface DigestLinkUsesTable {
  link_id: string;
  user_id: string;
  action: string;
  message_id: string | null;
  used_at: number;
  outcome: string;
}

/** Issue 29: what one user taught Rspamd from one message, per class (0025_learnings); the claim of a send too. */
export interface LearningsTable {
  message_id: string;
  user_id: string;
  learned_as: 'spam' | 'ham';
  claimed_at: number;
  /** Null while the learn is being sent. */
  learned_at: number | null;
}

export interface Database {
  users: UsersTable;
  user_invitations: UserInvitationsTable;
  domains: DomainsTable;
  sessions: SessionsTable;
  quarantine_messages: QuarantineMessagesTable;
  quarantine_recipients: QuarantineRecipientsTable;
  quarantine_counts: QuarantineCountsTable;
  quarantine_daily: QuarantineDailyTable;
  quarantine_tops: QuarantineTopsTable;
  job_locks: JobLocksTable;
  quarantine_raw: QuarantineRawTable;
  quarantine_deliveries: QuarantineDeliveriesTable;
  history: HistoryTable;
  history_audience: HistoryAudienceTable;
  mfa_backup_codes: MfaBackupCodesTable;
  mfa_partial_tokens: MfaPartialTokensTable;
  email_changes: EmailChangesTable;
  user_preferences: UserPreferencesTable;
  feedback: FeedbackTable;
  feedback_images: FeedbackImagesTable;
  rate_limits: RateLimitsTable;
  rspamd_filters: RspamdFiltersTable;
  apanel_filters: ApanelFiltersTable;
  system_rules: SystemRulesTable;
  rspamd_lists: RspamdListsTable;
  rspamd_map_fetches: RspamdMapFetchesTable;
  sender_lists: SenderListsTable;
  haraka_logs: HarakaLogsTable;
  haraka_log_counts: HarakaLogCountsTable;
  quarantine_message_uuids: QuarantineMessageUuidsTable;
  notification_settings: NotificationSettingsTable;
  notification_defaults: NotificationDefaultsTable;
  digest_sends: DigestSendsTable;
  digest_link_uses: DigestLinkUsesTable;
  learnings: LearningsTable;
  user_addresses: UserAddressesTable;
  oidc_flows: OidcFlowsTable;
  sso_tickets: SsoTicketsTable;
}
