import { LeftOutlined, RightOutlined, VerticalRightOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { usePhoneLayout } from './usePhoneLayout';

/** History state of a list entry: the cursors of the pages before it (keyset: no page numbers). */
export interface PagerState {
  cursors: string[];
}

function readPagerState(state: unknown): string[] {
  const cursors = (state as Partial<PagerState> | null)?.cursors;
  return Array.isArray(cursors) && cursors.every((c) => typeof c === 'string') ? cursors : [];
}

/**
 * Keyset paging of a list whose cursor lives in the URL: the cursors of the pages before live in the
 * history entry's state, so Back/Forward and Previous agree. `show` navigates to a cursor with a state.
 */
export function useKeysetPager(
  cursor: string | null,
  nextCursor: string | null,
  show: (cursor: string | null, state: PagerState) => void,
) {
  const location = useLocation();
  const cursors = readPagerState(location.state);
  return {
    /** 1-based page number, or null when opened on a later page from a link (unknown). */
    page: cursor ? (cursors.length ? cursors.length + 1 : null) : 1,
    hasPrevious: Boolean(cursor),
    hasNext: Boolean(nextCursor),
    goNext: () => {
      if (nextCursor) show(nextCursor, { cursors: [...cursors, cursor ?? ''] });
    },
    goPrevious: () => show(cursors.at(-1) || null, { cursors: cursors.slice(0, -1) }),
    goFirst: () => show(null, { cursors: [] }),
  };
}

export type KeysetPager = ReturnType<typeof useKeysetPager>;

/**
 * A keyset list whose filters and cursor live in the URL: `show` navigates to other filters (with
 * no pages before, unless a state says otherwise) and `pager` pages through the list. The next
 * cursor is the page's own: none while the previous page stands in for the one being loaded.
 */
export function useKeysetNavigation<F extends { cursor: string | null }>(
  filters: F,
  write: (filters: F) => URLSearchParams,
  list: { data?: { next_cursor: string | null } | undefined; isPlaceholderData: boolean },
) {
  const navigate = useNavigate();
  const show = (next: F, state: PagerState = { cursors: [] }) => {
    const search = write(next).toString();
    navigate({ search: search ? `?${search}` : '' }, { state });
  };
  const nextCursor = list.data && !list.isPlaceholderData ? list.data.next_cursor : null;
  const pager = useKeysetPager(filters.cursor, nextCursor, (cursor, state) => show({ ...filters, cursor }, state));
  return { show, pager };
}

/** Page number, First, Previous and Next buttons of a keyset pager; test ids `<testPrefix>-first|prev|next|page-number`. */
export function KeysetPagerButtons({ pager, testPrefix }: { pager: KeysetPager; testPrefix: string }) {
  const { t } = useTranslation('common');
  // On a phone Previous and Next are their arrows (named for assistive technology and on hover):
  // with their words, Next fell alone onto a second line.
  const phone = usePhoneLayout();
  const words = (label: string) => (phone ? { 'aria-label': label, title: label } : {});
  return (
    // Wraps on a narrow screen (a phone) instead of pushing the page wider than the window.
    <Flex align="center" justify="flex-end" gap={8} wrap>
      {pager.page !== null ? (
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }} data-testid={`${testPrefix}-page-number`}>
          {t('pager.page', { page: pager.page })}
        </Typography.Text>
      ) : null}
      <Button
        icon={<VerticalRightOutlined aria-hidden />}
        aria-label={t('pager.first')}
        title={t('pager.first')}
        disabled={!pager.hasPrevious}
        onClick={pager.goFirst}
        data-testid={`${testPrefix}-first`}
      />
      <Button
        icon={<LeftOutlined aria-hidden />}
        disabled={!pager.hasPrevious}
        onClick={pager.goPrevious}
        data-testid={`${testPrefix}-prev`}
        {...words(t('pager.previous'))}
      >
        {phone ? null : t('pager.previous')}
      </Button>
      <Button
        // On a phone the arrow is the icon, so the button is square like Previous.
        icon={phone ? <RightOutlined aria-hidden /> : undefined}
        disabled={!pager.hasNext}
        onClick={pager.goNext}
        data-testid={`${testPrefix}-next`}
        {...words(t('pager.next'))}
      >
        {phone ? null : t('pager.next')}
        {phone ? null : <RightOutlined aria-hidden />}
      </Button>
    </Flex>
  );
}
