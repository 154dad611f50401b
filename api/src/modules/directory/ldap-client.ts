import net from 'node:net';
import tls from 'node:tls';
import { Client, InvalidCredentialsError, ResultCodeError, type Entry, type Filter, type SearchOptions } from 'ldapts';
import type { LdapConfig } from '../../config';

/**
 * The directory cannot be used now: unreachable, too slow (QC_LDAP_TIMEOUT_MS), a TLS failure (a
 * certificate that does not match or is not trusted), the service account refused, or an answer
 * the console cannot act on. Sign-in answers 503 directory_unavailable; local accounts are unaffected.
 */
export class DirectoryUnavailableError extends Error {
  readonly code = 'directory_unavailable';
  /** True when it gave up waiting (QC_LDAP_TIMEOUT_MS), rather than being told no. */
  readonly timedOut: boolean;
  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DirectoryUnavailableError';
    this.timedOut = options.timedOut ?? false;
  }
}

/** The connection-level part of the settings. */
export type LdapConnectionConfig = Pick<LdapConfig, 'url' | 'startTls' | 'ca' | 'timeoutMs'>;

function describe(err: unknown): string {
  if (err instanceof ResultCodeError) return `${err.message} (LDAP result ${err.code})`;
  // Not `instanceof Error`: Node's own errors may come from another realm (a test VM context).
  if (typeof err === 'object' && err !== null && 'message' in err) {
    const { code, message } = err as { code?: unknown; message: unknown };
    const text = String(message).split('\n')[0]!;
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return String(err);
}

/** Anything that went wrong on the way, as a DirectoryUnavailableError saying what was being done. */
export function unavailable(err: unknown, doing: string): DirectoryUnavailableError {
  if (err instanceof DirectoryUnavailableError) return err;
  return new DirectoryUnavailableError(`${doing}: ${describe(err)}`, { cause: err });
}

/**
 * One connection to the directory. Its sockets are created through hooks that keep them, so that a
 * timeout or an error anywhere (the TLS handshake of StartTLS included, where ldapts has no timer)
 * destroys them all: nothing is left open. ldapts reconnects by itself when a socket has closed; a
 * second connection here is refused instead, so a dropped StartTLS session can never continue in
 * clear text, and a pooled connection that lost its bind is never used unbound.
 */
export class LdapConnection {
  private readonly client: Client;
  /** The URL's host: the name (or IP) the server's certificate must carry. */
  private readonly host: string;
  private readonly sockets = new Set<net.Socket>();
  private connections = 0;
  private closed = false;

  private constructor(private readonly config: LdapConnectionConfig) {
    this.host = new URL(config.url).hostname.replace(/^\[(.*)\]$/, '$1');
    const secure = config.url.startsWith('ldaps:');
    const keep = <S extends net.Socket>(socket: S): S => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      return socket;
    };
    const once = () => {
      if (this.closed) throw new Error('the connection was closed');
      if (++this.connections > 1) throw new Error('the connection was lost (not reopened unbound)');
    };
    this.client = new Client({
      url: config.url,
      timeout: config.timeoutMs,
      connectTimeout: config.timeoutMs,
      // Only for ldaps:// (ldapts takes any tlsOptions as "connect with TLS"); StartTLS gets its own.
      tlsOptions: secure ? this.tlsOptions() : undefined,
      strictDN: false,
      createConnection: ((port: number, h: string) => {
        once();
        return keep(net.connect(port, h));
      }) as typeof net.connect,
      createSecureConnection: ((...args: unknown[]) => {
        // (port, host, options): ldaps://; (options with the plain socket): the StartTLS upgrade.
        if (typeof args[0] === 'number') once();
        return keep((tls.connect as (...a: unknown[]) => tls.TLSSocket)(...args));
      }) as typeof tls.connect,
    });
  }

  /** The CA file's certificates (else the system's), the host name checked against the certificate. */
  private tlsOptions(): tls.ConnectionOptions {
    const { host } = this;
    return {
      ca: this.config.ca ?? undefined,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      host,
      // SNI takes a name only (RFC 6066); an IP is checked against the certificate's IP SANs.
      servername: net.isIP(host) ? undefined : host,
    };
  }

  /** Connects (and for StartTLS, upgrades) within the timeout; on failure nothing is left open. */
  static async open(config: LdapConnectionConfig): Promise<LdapConnection> {
    let connection: LdapConnection;
    try {
      connection = new LdapConnection(config);
    } catch (err) {
      throw unavailable(err, `connecting to ${config.url}`);
    }
    if (!config.startTls) return connection; // the first bind or search connects (same timeouts)
    try {
      await connection.step('StartTLS', () => connection.client.startTLS(connection.tlsOptions()));
      return connection;
    } catch (err) {
      connection.destroy();
      throw err;
    }
  }

  /** Connected and not closed: fit to be used again (a pool's idle connection). */
  get usable(): boolean {
    return !this.closed && this.client.isConnected && this.connections === 1;
  }

  /**
   * One step against the server within the timeout: an LDAP answer (ResultCodeError) is thrown as
   * it is, the connection still fine; anything else closes the connection and becomes a
   * DirectoryUnavailableError.
   */
  private async step<T>(doing: string, run: () => Promise<T>): Promise<T> {
    if (this.closed) throw new DirectoryUnavailableError(`${doing}: the connection was closed`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.destroy();
        reject(
          new DirectoryUnavailableError(`${doing}: no answer within ${this.config.timeoutMs} ms`, { timedOut: true }),
        );
      }, this.config.timeoutMs);
    });
    const running = run();
    running.catch(() => {}); // its rejection after the deadline is not unhandled
    try {
      return await Promise.race([running, deadline]);
    } catch (err) {
      if (err instanceof ResultCodeError) throw err;
      this.destroy();
      const timedOut = err instanceof DirectoryUnavailableError ? err.timedOut : /timed? ?out/i.test(describe(err));
      throw err instanceof DirectoryUnavailableError
        ? err
        : new DirectoryUnavailableError(`${doing}: ${describe(err)}`, { cause: err, timedOut });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A simple bind. An empty password is never sent: the server would take it as an unauthenticated
   * bind (RFC 4513 §5.1.2) and answer success without checking anything.
   */
  async bind(dn: string, password: string): Promise<void> {
    if (!dn || !password) throw new InvalidCredentialsError('an empty DN or password is not sent');
    await this.step('bind', () => this.client.bind(dn, password));
  }

  async search(base: string, options: SearchOptions & { filter: Filter }): Promise<Entry[]> {
    const result = await this.step('search', () => this.client.search(base, options));
    return result.searchEntries;
  }

  /** Unbinds (at most the timeout), then destroys whatever is left. Never throws. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.client.isConnected) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.client.unbind().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.config.timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    }
    this.destroy();
  }

  /** Closes every socket now (no unbind). */
  destroy(): void {
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

/**
 * Checks a password by binding as the person's DN on a connection of its own, closed afterwards
 * whatever happens. False: the directory said invalidCredentials (wrong password, or an account it
 * locks). An empty or whitespace-only password is false without connecting.
 */
export async function verifyPassword(config: LdapConnectionConfig, dn: string, password: string): Promise<boolean> {
  if (!dn || password.trim() === '') return false;
  let connection: LdapConnection | undefined;
  try {
    connection = await LdapConnection.open(config);
    await connection.bind(dn, password);
    return true;
  } catch (err) {
    if (err instanceof InvalidCredentialsError) return false;
    throw unavailable(err, 'binding as the person');
  } finally {
    await connection?.close();
  }
}

/**
 * Up to `size` connections bound as the service account (QC_LDAP_BIND_DN; anonymous without it),
 * kept open for the searches. A caller waits for one at most the timeout. A connection that failed
 * is closed, never given back; an idle one the server has closed in the meantime is replaced, and
 * an operation that finds its reused connection lost is tried once more on a new one.
 */
export class ServicePool {
  private readonly idle: LdapConnection[] = [];
  private readonly waiting: Array<() => void> = [];
  private busy = 0;
  private closed = false;

  constructor(private readonly config: LdapConfig) {}

  async run<T>(work: (connection: LdapConnection) => Promise<T>): Promise<T> {
    await this.slot();
    try {
      let reused = this.takeIdle();
      for (;;) {
        const connection = reused ?? (await this.openBound());
        try {
          const result = await work(connection);
          this.giveBack(connection);
          return result;
        } catch (err) {
          if (err instanceof ResultCodeError) {
            this.giveBack(connection); // an answer: the connection is fine
            throw err;
          }
          await connection.close();
          const lost = reused !== undefined && !(err instanceof DirectoryUnavailableError && err.timedOut);
          if (!lost) throw unavailable(err, 'searching the directory');
          reused = undefined; // once more, on a new connection
        }
      }
    } finally {
      this.release();
    }
  }

  private async openBound(): Promise<LdapConnection> {
    if (this.closed) throw new DirectoryUnavailableError('the directory client is closed');
    const connection = await LdapConnection.open(this.config);
    if (!this.config.bindDn || !this.config.bindPassword) return connection;
    try {
      await connection.bind(this.config.bindDn, this.config.bindPassword);
      return connection;
    } catch (err) {
      await connection.close();
      if (err instanceof InvalidCredentialsError) {
        throw new DirectoryUnavailableError(
          'the service account was refused (QC_LDAP_BIND_DN / QC_LDAP_BIND_PASSWORD: invalid credentials)',
          { cause: err },
        );
      }
      throw unavailable(err, 'binding as the service account');
    }
  }

  private takeIdle(): LdapConnection | undefined {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) {
      if (c.usable) return c;
      c.destroy();
    }
    return undefined;
  }

  private giveBack(connection: LdapConnection) {
    if (this.closed || !connection.usable) void connection.close();
    else this.idle.push(connection);
  }

  private async slot(): Promise<void> {
    if (this.closed) throw new DirectoryUnavailableError('the directory client is closed');
    if (this.busy < this.config.poolSize) {
      this.busy++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new DirectoryUnavailableError('every directory connection stayed busy', { timedOut: true }));
      }, this.config.timeoutMs);
      this.waiting.push(grant);
    });
  }

  private release() {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes on
    else this.busy--;
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((c) => c.close()));
  }
}
