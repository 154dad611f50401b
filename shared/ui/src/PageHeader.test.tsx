import { render, screen } from '@testing-library/react';
import { PageHeader } from './PageHeader';
import { onPhoneScreen } from './testing';

const LONG =
  'Téléchargements, libérations et suppressions faits par les utilisateurs de votre domaine ou sur ses e-mails, ainsi que les modifications et événements de sécurité de ses comptes et du domaine.';

describe('page header (issue 23)', () => {
  it('the actions share the title’s row; the description, however long, sits below that row', () => {
    render(<PageHeader title="Historique" description={LONG} extra={<button type="button">Actualiser</button>} />);
    const row = screen.getByTestId('page-header-row');
    const title = screen.getByRole('heading', { level: 1, name: 'Historique' });
    expect(title.parentElement).toBe(row);
    expect(row).toContainElement(screen.getByRole('button', { name: 'Actualiser' }));
    // A wide description beside the title pushed the actions onto a line of their own.
    const description = screen.getByText(LONG);
    expect(row).not.toContainElement(description);
    expect(row.compareDocumentPosition(description) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('on a phone the actions come after the description, not between it and the title', () => {
    const restore = onPhoneScreen();
    try {
      render(<PageHeader title="Historique" description={LONG} extra={<button type="button">Actualiser</button>} />);
      const button = screen.getByRole('button', { name: 'Actualiser' });
      expect(screen.getByTestId('page-header-row')).not.toContainElement(button);
      expect(screen.getByText(LONG).compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    } finally {
      restore();
    }
  });

  it('without actions nor description, the title alone', () => {
    render(<PageHeader title="Paramètres" />);
    expect(screen.getByTestId('page-header-row').children).toHaveLength(1);
  });
});
