import { i18next, initI18n } from '@qc/i18n';
import '@qc/ui/testing'; // jsdom lacks the ResizeObserver antd's Table measures with
import { act, render, screen, within } from '@testing-library/react';
import { registerMailNamespace } from '../../i18n';
import type { RspamdSymbol } from '../quarantine/quarantine.types';
import { SymbolsTable } from './SymbolsTable';

const FILTER_ID = '01JDQ1V9W3K2M4N5P6Q7R8S9T0';
const APANEL_ID = '01JDQ1V9W3K2M4N5P6Q7R8S9T1';
const SYSTEM_ID = '01JDQ1V9W3K2M4N5P6Q7R8S9T2';

const symbol = (name: string, score: number, rest: Partial<RspamdSymbol> = {}): RspamdSymbol => ({
  symbol: name,
  score,
  description: null,
  options: [],
  group: null,
  groups: [],
  ...rest,
});

const SYMBOLS: RspamdSymbol[] = [
  symbol('QC_FILTER_DOMAINS_REJECT', 10, {
    options: [`filter:${FILTER_ID}`],
    rules: [
      {
        token: `filter:${FILTER_ID}`,
        kind: 'filter',
        id: FILTER_ID,
        exists: true,
        label: 'bad.example',
        action: 'reject',
      },
    ],
  }),
  symbol('QC_APANEL_REJECT', 5, {
    options: [`apanel:${APANEL_ID}`, `system:${SYSTEM_ID}`],
    rules: [
      // Not an admin: no label, the token instead.
      { token: `apanel:${APANEL_ID}`, kind: 'apanel', id: APANEL_ID, exists: true, label: null, action: null },
      { token: `system:${SYSTEM_ID}`, kind: 'system', id: SYSTEM_ID, exists: false, label: null, action: null },
    ],
  }),
  symbol('BAYES_SPAM', 3, { description: 'Probably spam' }),
];

const ruleLines = (name: string) => {
  const row = screen.getByText(name).closest('tr')!;
  return within(row)
    .queryAllByTestId('email-symbol-rule')
    .map((r) => r.textContent);
};

beforeAll(() => {
  initI18n();
  registerMailNamespace();
});
afterEach(() => act(() => i18next.changeLanguage('fr')));

describe('SymbolsTable: held by filter X', () => {
  it('names the rule an option points at (label, or the token), and says when it was deleted, in French', () => {
    render(<SymbolsTable symbols={SYMBOLS} />);
    expect(ruleLines('QC_FILTER_DOMAINS_REJECT')).toEqual(['Retenu par le filtre bad.example']);
    expect(ruleLines('QC_APANEL_REJECT')).toEqual([
      `Retenu par le filtre du panneau de contrôle apanel:${APANEL_ID}`,
      `Retenu par la règle système system:${SYSTEM_ID} (supprimée)`,
    ]);
    expect(ruleLines('BAYES_SPAM')).toEqual([]);
  });

  it('in English', async () => {
    await act(() => i18next.changeLanguage('en'));
    render(<SymbolsTable symbols={SYMBOLS} />);
    expect(ruleLines('QC_FILTER_DOMAINS_REJECT')).toEqual(['Held by filter bad.example']);
    expect(ruleLines('QC_APANEL_REJECT')).toEqual([
      `Held by control-panel filter apanel:${APANEL_ID}`,
      `Held by system rule system:${SYSTEM_ID} (deleted)`,
    ]);
  });
});
