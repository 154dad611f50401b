import { initI18n } from '@qc/i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { TextFilter } from './TextFilter';

function Filters() {
  const [q, setQ] = useState('');
  return (
    <>
      <TextFilter id="q" label="Recherche" value={q} onCommit={setQ} testId="q" />
      <TextFilter id="sender" label="Expéditeur" value="" onCommit={() => {}} testId="sender" />
    </>
  );
}

beforeAll(() => {
  initI18n();
});

describe('text filter', () => {
  it('Tab goes from one filter to the next (not to the clear button); Escape or the button clears', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Filters />);
    const search = screen.getByLabelText('Recherche');
    await user.type(search, 'invoice');
    const clear = screen.getByRole('button', { name: 'Effacer «\u00a0Recherche\u00a0»' });
    await user.tab();
    expect(screen.getByLabelText('Expéditeur')).toHaveFocus();

    await user.click(search);
    await user.keyboard('{Escape}');
    expect(search).toHaveValue('');
    expect(search).toHaveFocus();
    expect(clear).not.toBeInTheDocument();

    await user.type(search, 'parcel');
    await user.click(screen.getByRole('button', { name: 'Effacer «\u00a0Recherche\u00a0»' }));
    expect(search).toHaveValue('');
  });
});
