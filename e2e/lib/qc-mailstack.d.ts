// Types of what the e2e harness uses from @qc/mailstack (CommonJS, no types of its own; see
// mailstack/README.md "From code").
declare module '@qc/mailstack' {
  export interface MailStack {
    smtpHost: string;
    smtpPort: number;
    apiUrl: string;
    runDir: string;
    logs: { redis: string; rspamd: string; haraka: string };
    pids: Record<string, number>;
    startedInMs: number;
    stop(): Promise<void>;
  }
  export function startMailStack(opts: {
    apiUrl: string;
    ingestToken: string;
    nextHop: string;
    smtpPort?: number;
    domains?: string[];
    /** Seconds between the qconsole plugin's polls of the console's accepted domains (default 10). */
    domainsRefresh?: number;
    /** Where Rspamd fetches the console's rules (default <apiUrl>/api/rspamd/maps); no token: rules off. */
    maps?: { url?: string; token?: string } | false;
    /** Rspamd's controller port on 127.0.0.1 (default: a free one) and password (default: random). */
    controllerPort?: number;
    rspamdPassword?: string;
    /** A DNS server on 127.0.0.1:<port> (startDnsServer): Rspamd resolves with it and checks SPF. */
    dns?: { port: number };
    onLog?: (name: string, line: string) => void;
    readyTimeoutMs?: number;
  }): Promise<MailStack>;
  /** A DNS server on 127.0.0.1 answering the given TXT records (SPF policies), NXDOMAIN otherwise. */
  export function startDnsServer(txt: Record<string, string[]>): Promise<{ port: number; close(): Promise<void> }>;
  /** The GTUBE test string: Rspamd answers `reject` to a message carrying it. */
  export const GTUBE: string;
}
