import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Spin from 'antd/es/spin';
import { useSession } from '@qc/auth';
import type { DigestAction, DigestActOutcome, DigestLinkInfo } from '@qc/contracts';
import type { TFunction } from 'i18next';
import { formatDateTime, useDocumentTitle, useThemeToken } from '@qc/ui';
import { useCallback, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { goToLogin, LOGIN_PATH, usePathname } from '../../app/location';
import { registerDigestLinkStrings } from '../../i18n/digest-link';
import { PublicPageLayout } from '../login/PublicPageLayout';
import { actOnDigestLink, DigestHttpError, getDigestLink } from './digest.http';
import { digestTokenOf } from './path';

// This chunk brings its own texts.
registerDigestLinkStrings();

type View =
  | { kind: 'loading' }
  | { kind: 'load_error'; error: unknown }
  | { kind: 'ready'; info: DigestLinkInfo }
  | { kind: 'done'; outcome: DigestActOutcome }
  | { kind: 'used'; outcome: DigestActOutcome | null }
  | { kind: 'expired' }
  | { kind: 'invalid' };

/** A refusal that is the link's state (404 invalid, 409 used, 410 expired), else null. */
function linkStateOf(error: unknown): View | null {
  if (!(error instanceof DigestHttpError)) return null;
  if (error.status === 404 || error.code === 'digest_link_invalid') return { kind: 'invalid' };
  if (error.status === 410 || error.code === 'digest_link_expired') return { kind: 'expired' };
  if (error.status === 409 || error.code === 'digest_link_used') return { kind: 'used', outcome: error.outcome };
  return null;
}

/** Any other failure in words (429 with its wait, network, server). */
function failureText(error: unknown, t: TFunction<'host'>): string {
  if (!(error instanceof DigestHttpError)) return t('common:errors.unknown');
  if (error.status === 429)
    return error.retryAfter
      ? t('digest_link.rate_limited_after', { seconds: Math.ceil(error.retryAfter) })
      : t('digest_link.rate_limited');
  if (error.code === 'network_error') return t('common:errors.network');
  if (error.status >= 502 && error.status <= 504) return t('common:errors.unavailable');
  if (error.status >= 500) return t('common:errors.server');
  return t('common:errors.unknown');
}

function viewOfInfo(info: DigestLinkInfo): View {
  if (info.state === 'ready' && info.action) return { kind: 'ready', info };
  if (info.state === 'used') return { kind: 'used', outcome: info.outcome };
  if (info.state === 'expired') return { kind: 'expired' };
  return { kind: 'invalid' };
}

const wrap: CSSProperties = { overflowWrap: 'anywhere', wordBreak: 'break-word' };

/** What a POST did, in words: the relay's answer for a release, the address for allow_sender. */
function OutcomeText({ outcome }: { outcome: DigestActOutcome }) {
  const { t } = useTranslation('host');
  const body =
    outcome.result === 'sender_allowed'
      ? outcome.sender
        ? t('digest_link.results_body.sender_allowed', { sender: outcome.sender })
        : t('digest_link.results_body.sender_allowed_unknown')
      : t(`digest_link.results_body.${outcome.result}`);
  return (
    <>
      <strong>{t(`digest_link.results.${outcome.result}`)}</strong>
      <div style={wrap}>{body}</div>
      {outcome.relay_response ? (
        <div style={wrap} data-testid="digest-relay-answer">
          {t('digest_link.relay_answer', { answer: outcome.relay_response })}
        </div>
      ) : null}
    </>
  );
}

function Details({ info }: { info: DigestLinkInfo }) {
  const { t, i18n } = useTranslation('host');
  const token = useThemeToken();
  const rows: [string, ReactNode][] = [];
  const m = info.message;
  if (m) {
    rows.push([t('digest_link.message.sender'), m.sender]);
    rows.push([t('digest_link.message.subject'), m.subject || t('digest_link.message.no_subject')]);
    rows.push([t('digest_link.message.date'), formatDateTime(m.received_at, i18n.language)]);
    rows.push([
      t('digest_link.message.score'),
      m.score === null
        ? t('digest_link.message.no_score')
        : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(m.score),
    ]);
  }
  if (info.recipient) rows.push([t('digest_link.recipient'), info.recipient]);
  if (info.expires_at) rows.push([t('digest_link.expires'), formatDateTime(info.expires_at, i18n.language)]);
  if (rows.length === 0) return null;
  return (
    <dl
      data-testid="digest-details"
      style={{
        display: 'grid',
        gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)',
        gap: '6px 12px',
        margin: '16px 0',
        padding: 12,
        borderRadius: token.borderRadius,
        background: token.colorFillQuaternary,
      }}
    >
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt style={{ color: token.colorTextSecondary }}>{label}</dt>
          <dd style={{ margin: 0, ...wrap }}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * /digest/<token> (issue 20): the page a digest e-mail's links open, with or without a session.
 * Opening it only reads what the link will do (GET: mail scanners prefetch links); the confirm
 * button's POST acts, once, and the page then says what happened.
 */
export default function DigestLinkPage() {
  const { t, i18n } = useTranslation('host');
  const token = useThemeToken();
  const path = usePathname();
  const linkToken = digestTokenOf(path);
  const signedIn = useSession((s) => s.isAuthenticated);
  const [view, setView] = useState<View>(linkToken ? { kind: 'loading' } : { kind: 'invalid' });
  const [acting, setActing] = useState(false);
  const [actError, setActError] = useState<string | null>(null);
  const inFlight = useRef(false);

  /** GET only: the page never acts on load. Errors are kept as such (their words follow the language). */
  const read = useCallback(
    (live: () => boolean) =>
      getDigestLink(linkToken).then(
        (info) => live() && setView(viewOfInfo(info)),
        (error: unknown) => live() && setView(linkStateOf(error) ?? { kind: 'load_error', error }),
      ),
    [linkToken],
  );
  useEffect(() => {
    if (!linkToken) return;
    let live = true;
    void read(() => live);
    return () => {
      live = false;
    };
  }, [linkToken, read]);
  const retryRead = () => {
    setView({ kind: 'loading' });
    void read(() => true);
  };

  const act = async () => {
    if (inFlight.current) return; // one POST, however many clicks
    inFlight.current = true;
    setActing(true);
    setActError(null);
    try {
      setView({ kind: 'done', outcome: await actOnDigestLink(linkToken) });
    } catch (error) {
      const state = linkStateOf(error);
      if (state) setView(state);
      else setActError(failureText(error, t));
    } finally {
      inFlight.current = false;
      setActing(false);
    }
  };

  const title =
    view.kind === 'ready'
      ? t(`digest_link.actions.${view.info.action}`)
      : view.kind === 'done'
        ? t(`digest_link.results.${view.outcome.result}`)
        : view.kind === 'used' || view.kind === 'expired' || view.kind === 'invalid'
          ? t(`digest_link.states.${view.kind}_title`)
          : t('digest_link.title');
  useDocumentTitle(title);

  const toConsole = (
    <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
      <a
        href={LOGIN_PATH}
        style={{ color: token.colorLink }}
        onClick={(e) => {
          e.preventDefault();
          goToLogin(); // signed in: /login moves on to the console
        }}
      >
        {t(signedIn ? 'digest_link.to_console' : 'digest_link.to_login')}
      </a>
    </p>
  );

  let body: ReactNode;
  switch (view.kind) {
    case 'loading':
      body = (
        <div role="status" aria-live="polite" style={{ textAlign: 'center', padding: 24 }}>
          <Spin aria-hidden />
          <div style={{ marginTop: 8, color: token.colorTextSecondary }}>{t('digest_link.loading')}</div>
        </div>
      );
      break;
    case 'load_error':
      body = (
        <Alert
          type="error"
          showIcon
          title={t('digest_link.load_error')}
          description={failureText(view.error, t)}
          action={<Button onClick={retryRead}>{t('digest_link.retry')}</Button>}
          data-testid="digest-load-error"
        />
      );
      break;
    case 'ready': {
      const action = view.info.action as DigestAction;
      body = (
        <div data-testid="digest-confirm" data-action={action}>
          <p style={{ margin: 0, ...wrap }}>
            {t(`digest_link.explain.${action}`, { sender: view.info.message?.sender ?? '' })}
          </p>
          <Details info={view.info} />
          <p style={{ margin: '0 0 16px', color: token.colorTextSecondary }}>{t('digest_link.nothing_yet')}</p>
          {actError ? (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={actError}
              style={{ marginBottom: 16 }}
              data-testid="digest-act-error"
            />
          ) : null}
          <Button
            type="primary"
            danger={action === 'delete'}
            block
            size="large"
            loading={acting}
            onClick={() => void act()}
            data-testid="digest-confirm-button"
          >
            {t(`digest_link.confirm.${action}`)}
          </Button>
        </div>
      );
      break;
    }
    case 'done': {
      const failed = view.outcome.result === 'failed';
      body = (
        <div data-testid="digest-outcome" data-result={view.outcome.result}>
          <Alert
            type={failed ? 'error' : view.outcome.result === 'already_done' ? 'info' : 'success'}
            showIcon
            role={failed ? 'alert' : 'status'}
            title={<OutcomeText outcome={view.outcome} />}
          />
          {failed && actError ? (
            <Alert type="error" showIcon role="alert" title={actError} style={{ marginTop: 16 }} />
          ) : null}
          {failed ? (
            <Button
              type="primary"
              block
              style={{ marginTop: 16 }}
              loading={acting}
              onClick={() => void act()}
              data-testid="digest-retry"
            >
              {t('digest_link.retry')}
            </Button>
          ) : null}
          {toConsole}
        </div>
      );
      break;
    }
    case 'used':
      body = (
        <div data-testid="digest-state" data-state="used">
          <Alert type="info" showIcon role="status" title={t('digest_link.states.used')} />
          {view.outcome ? (
            <div style={{ marginTop: 16 }} data-testid="digest-first-outcome">
              <div style={{ color: token.colorTextSecondary }}>
                {t('digest_link.states.used_on', { date: formatDateTime(view.outcome.at, i18n.language) })}
              </div>
              <OutcomeText outcome={view.outcome} />
            </div>
          ) : null}
          {toConsole}
        </div>
      );
      break;
    default:
      body = (
        <div data-testid="digest-state" data-state={view.kind}>
          <Alert
            type={view.kind === 'expired' ? 'warning' : 'error'}
            showIcon
            role="alert"
            title={t(`digest_link.states.${view.kind}`)}
          />
          {toConsole}
        </div>
      );
  }

  return (
    <PublicPageLayout title={title} testId="digest-page" width={520}>
      {body}
    </PublicPageLayout>
  );
}
