import { initI18n } from '@qc/i18n';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { KeysetPagerButtons, type KeysetPager } from './KeysetPager';
import { onPhoneScreen } from './testing';

beforeAll(() => initI18n());

const pager: KeysetPager = {
  page: 2,
  hasPrevious: true,
  hasNext: true,
  goNext: () => {},
  goPrevious: () => {},
  goFirst: () => {},
};
const buttons = () =>
  render(
    <MemoryRouter>
      <KeysetPagerButtons pager={pager} testPrefix="p" />
    </MemoryRouter>,
  );

describe('KeysetPagerButtons', () => {
  it('Previous and Next in words on a wide screen', () => {
    buttons();
    expect(screen.getByTestId('p-prev')).toHaveTextContent('Page précédente');
    expect(screen.getByTestId('p-next')).toHaveTextContent('Page suivante');
  });

  it('on a phone, their arrows, still named (one line with the page number)', () => {
    const restore = onPhoneScreen();
    try {
      buttons();
      expect(screen.getByRole('button', { name: 'Page précédente' })).toHaveTextContent(/^$/);
      expect(screen.getByRole('button', { name: 'Page suivante' })).toHaveTextContent(/^$/);
      expect(screen.getByTestId('p-page-number')).toHaveTextContent('Page 2');
    } finally {
      restore();
    }
  });
});
