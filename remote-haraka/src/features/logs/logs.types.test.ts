import {
  EMAIL_ID as API_EMAIL_ID,
  HARAKA_UUID as API_UUID,
  LOG_LIMITS,
  LOG_SEVERITIES as API_SEVERITIES,
  STATISTICS_PERIODS,
  TRANSACTION_OUTCOMES as API_OUTCOMES,
} from '@qc/contracts';
import { EMAIL_ID, HARAKA_UUID, LOG_SEVERITIES, SEARCH_DAYS, STATS_PERIODS, TRANSACTION_OUTCOMES } from './logs.types';

describe('constants mirrored from @qc/contracts', () => {
  it('are the api’s', () => {
    expect(LOG_SEVERITIES).toEqual(API_SEVERITIES);
    expect(TRANSACTION_OUTCOMES).toEqual(API_OUTCOMES);
    expect(HARAKA_UUID.source).toBe(API_UUID.source);
    expect(EMAIL_ID.source).toBe(API_EMAIL_ID.source);
    expect(SEARCH_DAYS).toBe(LOG_LIMITS.searchDays);
    expect(STATS_PERIODS).toEqual(STATISTICS_PERIODS);
  });

  it('HARAKA_UUID takes a connection or a transaction, nothing else', () => {
    expect(HARAKA_UUID.test('B7F0A1C2-1D2E-4F50-8A9B-0C1D2E3F4A5B')).toBe(true);
    expect(HARAKA_UUID.test('b7f0a1c2-1d2e-4f50-8a9b-0c1d2e3f4a5b.2')).toBe(true);
    for (const bad of [
      '',
      'B1C2D3E4-0001',
      'B7F0A1C2-1D2E-4F50-8A9B-0C1D2E3F4A5B.',
      '../admin',
      'B7F0A1C2-1D2E-4F50-8A9B-0C1D2E3F4A5Z',
    ])
      expect(HARAKA_UUID.test(bad)).toBe(false);
  });
});
