/**
 * Types of the quarantine API come from @qc/contracts (DESIGN §4). TYPES only: the contract module
 * builds zod schemas when loaded (~25 KB gzip), so its run-time lists are mirrored here and checked
 * against the contract types at compile time.
 */
import type {
  BulkAction,
  BulkItemResult,
  BulkResponse,
  DeliveryAttempt,
  MailAction,
  MailAttachment,
  MailHeader,
  QuarantineDetail,
  QuarantineItem,
  QuarantineList,
  QuarantineListQuery,
  QuarantineRecipient,
  QuarantineStatus,
  ReleaseDelivery,
  ReleaseInProgress,
  ReleaseResponse,
  RspamdSymbol,
} from '@qc/contracts';

export type {
  BulkAction,
  BulkItemResult,
  BulkResponse,
  DeliveryAttempt,
  MailAction,
  MailAttachment,
  MailHeader,
  QuarantineDetail,
  QuarantineItem,
  QuarantineList,
  QuarantineRecipient,
  QuarantineStatus,
  ReleaseDelivery,
  ReleaseInProgress,
  ReleaseResponse,
  RspamdSymbol,
};

/** `?status=` of the list: pending = still held (pending, releasing, release_failed, release_unknown). */
export type QuarantineStatusFilter = QuarantineListQuery['status'];
export const STATUS_FILTERS = [
  'pending',
  'released',
  'deleted',
  'all',
] as const satisfies readonly QuarantineStatusFilter[];

/** Spec §4: the actions shown. */
export const EMAIL_ACTIONS = [
  'reject',
  'soft_reject',
  'quarantine',
  'greylist',
  'rewrite_subject',
  'add_header',
  'no_action',
  'custom',
] as const satisfies readonly MailAction[];

export const EMAIL_STATUSES = [
  'pending',
  'releasing',
  'released',
  'release_failed',
  'release_unknown',
  'deleted',
] as const satisfies readonly QuarantineStatus[];

/** Statuses still held in quarantine (a release or a deletion applies). */
export const HELD: readonly QuarantineStatus[] = ['pending', 'release_failed', 'release_unknown'];

// Compile-time: the mirrored lists cover the contract's (a new value there fails the type check here).
type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const _covered: [
  Covers<QuarantineStatusFilter, (typeof STATUS_FILTERS)[number]>,
  Covers<MailAction, (typeof EMAIL_ACTIONS)[number]>,
  Covers<QuarantineStatus, (typeof EMAIL_STATUSES)[number]>,
] = [true, true, true];

/** Page sizes offered (the settings page offers the same), and the API's maximum. */
export const PAGE_SIZES = [10, 20, 50, 100, 200] as const;
export { LIMITS } from '@qc/contracts';

/** Query string of GET /api/quarantine/ as sent (strings). */
export interface ListQueryParams {
  status: QuarantineStatusFilter;
  q?: string;
  sender?: string;
  recipient?: string;
  action?: string;
  score_min?: string;
  score_max?: string;
  date_from?: string;
  date_to?: string;
  sort?: SortKey;
  order?: SortOrder;
  cursor?: string;
  page_size: string;
}

/** What the list can be sorted by (server-side), mirrored from the contract's QUARANTINE_SORTS. */
export const SORT_KEYS = ['date', 'score', 'sender', 'size'] as const satisfies readonly QuarantineListQuery['sort'][];
export type SortKey = QuarantineListQuery['sort'];
export type SortOrder = QuarantineListQuery['order'];

/** 502 codes of a release: the message stays quarantined. */
export type ReleaseFailureCode = 'relay_refused' | 'relay_unreachable' | 'release_unknown';
export const RELEASE_FAILURE_CODES: readonly string[] = ['relay_refused', 'relay_unreachable', 'release_unknown'];
