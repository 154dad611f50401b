import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { openMigratedDatabase } from '../db/database';
import { HttpError } from '../lib/http-error';
import { createMailer } from '../lib/mailer';
import { createPasswordHasher } from '../lib/passwords';
import { runDigestJob } from '../modules/notifications/digest.service';
import { runRetention } from '../modules/retention/retention.service';
import { rebuildStatistics } from '../modules/statistics/statistics.repository';
import { rebuildTops } from '../modules/statistics/tops.repository';
import { systemManager } from '../modules/users/users-admin.service';
import { createUser, resetMfa, setPassword, setRole, type UserDeps } from '../modules/users/users.service';

/** The history names the command line as the actor of its changes (an admin without an account). */
const CLI = systemManager('cli');

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input (used for passwords, so they stay out of shell history and `ps`). */
  readStdin(): Promise<string>;
}

export const USAGE = `Usage: cli <command> [options]

Commands:
  user:create        --email <e-mail> --role <admin|domain_admin|user> [--password <pw>|-]
                     [--domain <domain>] [--username <name>] [--first-name <n>] [--last-name <n>]
                     Creates a user (and the domain when it does not exist yet).
  user:set-password  --email <e-mail> [--password <pw>|-]
  user:reset-mfa     --email <e-mail>
  user:set-role      --email <e-mail> --role <role> [--domain <domain>]
  stats:rebuild      Recomputes the dashboard counters, the per-day statistics and the top lists
                     from the stored rows (repair after a restore or a manual change of the
                     database).
  retention:run      Runs the retention job now (QC_RETENTION_DAYS), unless a server is running it.
  digest:run [--now] Sends the quarantine digests that are due (as the server does on
                     QC_DIGEST_SCHEDULE), unless a server is running them. With --now, every user
                     with notifications on gets theirs now, whatever their send time (one per
                     period: their next scheduled one is then not sent again). A digest lists
                     mail that arrived up to 2 minutes before the run (a mail stamped just
                     before it may still be on its way into the database). Needs QC_SMTP_URL.

Without --password, or with --password -, the password is read from standard input (first line).
Configuration and database are the server's (QC_* environment variables).
`;

const OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  domain: { type: 'string' },
  username: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  now: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: true }>>['values'];

class UsageError extends Error {}

function required(values: Values, name: 'email' | 'role'): string {
  const v = values[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

async function passwordFrom(values: Values, io: CliIo): Promise<string> {
  if (values.password !== undefined && values.password !== '-') return values.password;
  const line = (await io.readStdin()).split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError('no password given (use --password or pass it on standard input)');
  return line;
}

type Command = (deps: UserDeps & { config: Config }, values: Values, io: CliIo) => Promise<string>;

const COMMANDS: Record<string, Command> = {
  'user:create': async (deps, v, io) => {
    const user = await createUser(
      deps,
      {
        email: required(v, 'email'),
        role: required(v, 'role'),
        password: await passwordFrom(v, io),
        domain: v.domain,
        username: v.username,
        first_name: v['first-name'],
        last_name: v['last-name'],
      },
      CLI,
    );
    return `Created ${user.role} ${user.email} (id ${user.id})`;
  },
  'user:set-password': async (deps, v, io) => {
    const user = await setPassword(deps, required(v, 'email'), await passwordFrom(v, io), CLI);
    return `Password changed for ${user.email}; their sessions were ended`;
  },
  'user:reset-mfa': async (deps, v) => {
    const user = await resetMfa(deps, required(v, 'email'), CLI);
    return `Two-factor authentication reset for ${user.email}; their sessions were ended`;
  },
  'user:set-role': async (deps, v) => {
    const user = await setRole(deps, required(v, 'email'), required(v, 'role'), v.domain, CLI);
    return `${user.email} is now ${user.role}; their sessions were ended`;
  },
  'stats:rebuild': async (deps) => {
    const { counters, days } = await rebuildStatistics(deps.db);
    const tops = await rebuildTops(deps.db);
    return `Statistics rebuilt from the stored rows: ${counters} counter rows, ${days} day rows, ${tops} top rows`;
  },
  'retention:run': async (deps) => {
    const run = await runRetention(deps);
    if (!run.ran) return 'The retention job is running elsewhere; nothing done';
    return `Retention: raw mail of ${run.result.purged} messages purged, ${run.result.sessions} sessions deleted`;
  },
  'digest:run': async (deps, v, io) => {
    if (!deps.config.smtpUrl) throw new Error('QC_SMTP_URL is not set: digests cannot be sent');
    const mailer = createMailer(deps.config, { info: () => undefined });
    const log = { warn: (obj: object, msg: string) => io.stderr(`warning: ${msg}\n`) };
    const run = await runDigestJob({ db: deps.db, config: deps.config, mailer, log }, { all: v.now ?? false });
    if (!run.ran) return 'The digest job is running elsewhere; nothing done';
    const r = run.result;
    return `Digests: ${r.sent} sent, ${r.empty} empty (nothing held, not sent), ${r.failed} failed, ${r.skipped} claimed by another runner`;
  },
};

/** Runs one command; returns the exit code (0 ok, 1 failed, 2 bad usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true }));
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [name, ...extra] = positionals;
  if (values.help || name === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const command = name ? COMMANDS[name] : undefined;
  if (!command || extra.length) {
    io.stderr(
      `error: ${name ? `unknown command or extra arguments: ${positionals.join(' ')}` : 'no command given'}\n\n${USAGE}`,
    );
    return 2;
  }

  let database;
  try {
    const config = loadConfig(io.env, io.cwd);
    database = await openMigratedDatabase(config.database);
    const deps = { db: database.db, passwords: createPasswordHasher(config.argon2), config };
    io.stdout(`${await command(deps, values, io)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`error: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof HttpError) {
      const fields = Object.entries(err.errors ?? {}).map(([k, m]) => `\n  ${k}: ${m}`);
      io.stderr(`error: ${err.detail}${fields.join('')}\n`);
      return 1;
    }
    io.stderr(`error: ${err instanceof ConfigError ? err.message : ((err as Error).message ?? String(err))}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}
