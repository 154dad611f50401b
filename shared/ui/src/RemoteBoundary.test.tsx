import { initI18n } from '@qc/i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { failureKind, isIncompatibleRemote, RemoteLoadError, RemoteModule, type RemoteLoader } from './RemoteBoundary';

beforeAll(() => initI18n());
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const Page: ComponentType = () => <p>remote page</p>;

describe('remote boundary (DESIGN §3)', () => {
  it('"did not load": translated Result, and Retry re-creates the lazy (second attempt loads)', async () => {
    let attempts = 0;
    const load: RemoteLoader = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('Failed to load script resources #RUNTIME-008');
      return { default: Page };
    };
    render(<RemoteModule id="remote_mail/Dashboard" name="Tableau de bord" load={load} />);
    const failure = await screen.findByTestId('remote-load-error');
    expect(failure).toHaveTextContent('Ce module n’a pas pu être chargé');
    expect(failure).toHaveTextContent('Tableau de bord');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('remote page')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a page visited again renders at once (no loading flash), and a failed load is tried again on the next visit', async () => {
    let attempts = 0;
    const load: RemoteLoader = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('offline');
      return { default: Page };
    };
    const first = render(<RemoteModule id="host/settings" name="Paramètres" load={load} />);
    expect(await screen.findByTestId('remote-load-error')).toBeInTheDocument();
    first.unmount();
    const second = render(<RemoteModule id="host/settings" name="Paramètres" load={load} />);
    expect(await screen.findByText('remote page')).toBeInTheDocument();
    second.unmount();
    render(<RemoteModule id="host/settings" name="Paramètres" load={load} />);
    expect(screen.getByText('remote page')).toBeInTheDocument(); // synchronously: no spinner
    expect(screen.queryByTestId('page-loading')).toBeNull();
    expect(attempts).toBe(2);
  });

  it('a remote built for a newer console (strict shared singleton refused): says so, in either language', async () => {
    const refusal = new Error(
      '[ Federation Runtime ]: Version 1.2.0 from host of shared singleton module @qc/auth does not satisfy the requirement of remote_haraka which needs ^2.0.0)',
    );
    render(
      <RemoteModule
        id="remote_haraka/Logs"
        name="Journaux"
        load={async () => {
          throw refusal;
        }}
      />,
    );
    const failure = await screen.findByTestId('remote-incompatible');
    expect(failure).toHaveTextContent('Ce module demande une console plus récente');
    expect(failure).toHaveTextContent('Journaux');
    expect(screen.queryByTestId('remote-load-error')).toBeNull();
    // Told apart through the RemoteLoadError that wraps it, and not for other load failures.
    expect(isIncompatibleRemote(new RemoteLoadError('remote_haraka/Logs', refusal))).toBe(true);
    expect(isIncompatibleRemote(new RemoteLoadError('remote_haraka/Logs', new Error('offline')))).toBe(false);
    expect(failureKind(new RemoteLoadError('remote_haraka/Logs', refusal))).toBe('incompatible');
  });

  it('a refused remote stays refused on a remount and a Retry: the runtime is not asked again (it would hand back the module without its singletons)', async () => {
    let attempts = 0;
    const load: RemoteLoader = async () => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error(
          '[ Federation Runtime ]: Version 1.2.0 from host of shared singleton module @qc/auth does not satisfy the requirement of remote_haraka which needs ^2.0.0)',
        );
      }
      return { default: Page };
    };
    const first = render(<RemoteModule id="remote_haraka/Logs" name="Journaux" load={load} />);
    expect(await screen.findByTestId('remote-incompatible')).toBeInTheDocument();
    first.unmount();
    render(<RemoteModule id="remote_haraka/Logs" name="Journaux" load={load} />);
    expect(await screen.findByTestId('remote-incompatible')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByTestId('remote-incompatible')).toBeInTheDocument();
    expect(screen.queryByText('remote page')).toBeNull();
    expect(attempts).toBe(1);
  });

  it('a loader answering nothing (container without that module) is a load failure', async () => {
    render(<RemoteModule id="remote_mail/Nope" name="X" load={async () => null} />);
    expect(await screen.findByTestId('remote-load-error')).toBeInTheDocument();
  });

  it('"threw while rendering": its own translated Result with Retry', async () => {
    let broken = true;
    const Throws: ComponentType = () => {
      if (broken) throw new Error('render bug');
      return <p>recovered</p>;
    };
    render(<RemoteModule id="remote_mail/Dashboard" name="Tableau de bord" load={async () => ({ default: Throws })} />);
    const failure = await screen.findByTestId('remote-render-error');
    expect(failure).toHaveTextContent('Ce module a rencontré une erreur');
    expect(screen.queryByTestId('remote-load-error')).not.toBeInTheDocument();
    broken = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('recovered')).toBeInTheDocument();
  });

  it('a render error clears when the user goes elsewhere in the remote (another path)', async () => {
    const Throws: ComponentType = () => {
      if (window.location.hash === '#bad') throw new Error('render bug on one e-mail');
      return <p>other page</p>;
    };
    const load: RemoteLoader = async () => ({ default: Throws });
    window.location.hash = '#bad';
    const { rerender } = render(
      <RemoteModule id="remote_mail/Mail" name="Quarantaine" load={load} location="/mail/bad" />,
    );
    expect(await screen.findByTestId('remote-render-error')).toBeInTheDocument();
    window.location.hash = '';
    rerender(<RemoteModule id="remote_mail/Mail" name="Quarantaine" load={load} location="/mail" />);
    expect(await screen.findByText('other page')).toBeInTheDocument();
  });
});
