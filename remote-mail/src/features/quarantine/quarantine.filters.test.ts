import { localDaysRange, toIsoWithOffset } from '@qc/ui';
import { safeFilename, suggestedFilename } from './quarantine.api';
import {
  DEFAULT_FILTERS,
  patchFilters,
  readFilters,
  scoreRangeReversed,
  toListQuery,
  writeFilters,
} from './quarantine.filters';
import { formatSize, scoreBand } from './quarantine.format';

const read = (search: string) => readFilters(new URLSearchParams(search));

describe('list filters ⇄ URL', () => {
  it('a hand-edited URL never breaks the page: invalid values fall back to their defaults', () => {
    expect(
      read('status=nope&action=drop_table&score_min=1e99&score_max=abc&period=last_8_days&page_size=500&cursor='),
    ).toEqual(DEFAULT_FILTERS);
    expect(read('period=custom&from=2026-02-30&to=2026-03-01')).toMatchObject({ period: '', from: '', to: '' });
    expect(read('page_size=0').pageSize).toBeNull();
    expect(read('page_size=20.5').pageSize).toBeNull();
    // Reversed score bounds are kept (the fields show the error; the list is not asked for).
    const reversed = read('score_min=10&score_max=5');
    expect(reversed).toMatchObject({ scoreMin: '10', scoreMax: '5' });
    expect(scoreRangeReversed(reversed)).toBe(true);
    expect(scoreRangeReversed(read('score_min=5&score_max=5'))).toBe(false);
    expect(scoreRangeReversed(read('score_min=10'))).toBe(false);
    expect(read('sort=subject&order=up')).toMatchObject({ sort: 'date', order: 'desc' });
  });

  it('reads every filter', () => {
    expect(
      read(
        'status=all&q=%20invoice%20&sender=a%40b.example&recipient=c&action=greylist&score_min=-2.5&score_max=15' +
          '&period=custom&from=2026-11-01&to=2026-11-20&sort=score&order=asc&page_size=100&cursor=abc',
      ),
    ).toEqual({
      status: 'all',
      q: 'invoice',
      sender: 'a@b.example',
      recipient: 'c',
      action: 'greylist',
      scoreMin: '-2.5',
      scoreMax: '15',
      period: 'custom',
      from: '2026-11-01',
      to: '2026-11-20',
      sort: 'score',
      order: 'asc',
      pageSize: 100,
      cursor: 'abc',
    });
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(writeFilters(DEFAULT_FILTERS).toString()).toBe('');
    const f = {
      ...DEFAULT_FILTERS,
      status: 'deleted' as const,
      q: 'a b',
      period: 'today' as const,
      from: 'x',
      to: 'y',
    };
    expect(writeFilters(f).toString()).toBe('status=deleted&q=a+b&period=today');
    const custom = read('period=custom&from=2026-11-01&to=2026-11-20&sender=s');
    expect(read(writeFilters(custom).toString())).toEqual(custom);
  });

  it('a change of filter goes back to the first page; a change of page keeps the filters', () => {
    const f = read('q=x&cursor=c2&period=custom&from=2026-11-01&to=2026-11-02');
    expect(patchFilters(f, { q: 'y' })).toMatchObject({ q: 'y', cursor: null, period: 'custom', from: '2026-11-01' });
    expect(patchFilters(f, { cursor: 'c3' })).toMatchObject({ q: 'x', cursor: 'c3' });
    expect(patchFilters(f, { period: 'today' })).toMatchObject({ period: 'today', from: '', to: '' });
  });

  it('builds the API query: dates in local time with their offset, page size capped', () => {
    const f = read('status=released&period=custom&from=2026-11-01&to=2026-11-20&score_min=5&cursor=c');
    const range = localDaysRange('2026-11-01', '2026-11-20')!;
    expect(toListQuery(f, 500)).toEqual({
      status: 'released',
      score_min: '5',
      date_from: toIsoWithOffset(range.from),
      date_to: toIsoWithOffset(range.to),
      cursor: 'c',
      page_size: '200',
    });
    expect(toListQuery(DEFAULT_FILTERS, 50)).toEqual({ status: 'pending', page_size: '50' });
    expect(toListQuery(read('sort=size'), 50)).toEqual({ status: 'pending', sort: 'size', page_size: '50' });
    expect(toListQuery(read('order=asc'), 50)).toEqual({ status: 'pending', order: 'asc', page_size: '50' });
  });
});

describe('formatting', () => {
  it('score bands (the spec’s risk levels)', () => {
    expect([-3, 0, 4.99, 5, 9.99, 10, 14.99, 15, 40].map(scoreBand)).toEqual([
      'low',
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
      'critical',
    ]);
  });

  it('human-readable sizes in the user’s language', () => {
    const size = (n: number, lang: string) => formatSize(n, lang).replace(/\s/g, ' '); // fr uses U+202F
    expect(size(512, 'en')).toBe('512 bytes');
    expect(size(1, 'fr')).toBe('1 octet');
    expect(size(2048, 'fr')).toBe('2 ko');
    expect(size(1.5 * 1024 * 1024, 'en')).toBe('1.5 MB');
    expect(size(25 * 1024 * 1024, 'fr')).toBe('25 Mo');
  });

  it('a downloaded file name is safe whatever the server suggested', () => {
    expect(safeFilename('You_won-m1.eml', 'm1')).toBe('You_won-m1.eml');
    expect(safeFilename('../../etc/passwd', 'm1')).toBe('etc_passwd.eml');
    expect(safeFilename('', 'a/b:c')).toBe('a_b_c.eml');
  });

  it('the suggested name is the UTF-8 one when the server gives it, else the ASCII one', () => {
    const both = `attachment; filename="message-m1.eml"; filename*=UTF-8''${encodeURIComponent('Счёт №5-m1.eml')}`;
    expect(suggestedFilename(both)).toBe('Счёт №5-m1.eml');
    expect(safeFilename(suggestedFilename(both), 'm1')).toBe('Счёт_5-m1.eml');
    expect(suggestedFilename('attachment; filename="message-m1.eml"')).toBe('message-m1.eml');
    expect(suggestedFilename(`attachment; filename="message-m1.eml"; filename*=UTF-8''%E0%A4%A`)).toBe(
      'message-m1.eml',
    );
  });
});
