import { CompiledQuery, sql, type Compilable, type RawBuilder } from 'kysely';
import type { DatabaseHandle } from '../db/database';

/** One node of a PostgreSQL plan, flattened. */
export interface PlanNode {
  type: string;
  relation?: string;
  index?: string;
  cond?: string;
}

export interface QueryPlan {
  /** SQLite's EXPLAIN QUERY PLAN lines, or the PostgreSQL nodes as JSON. */
  text: string;
  /** PostgreSQL only (empty on SQLite). */
  nodes: PlanNode[];
  /** The PostgreSQL nodes' index conditions. */
  conds: string[];
}

const isRawBuilder = (q: unknown): q is RawBuilder<unknown> => (q as RawBuilder<unknown>).isRawBuilder === true;

/**
 * The plan of a query, for the query-plan tests: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's JSON
 * plan flattened, with sequential scans turned off when `planner` is 'no-seqscan' (a small test
 * table would otherwise be read whole, whatever the indexes).
 */
export async function explainQuery(
  handle: DatabaseHandle,
  query: Compilable | RawBuilder<unknown>,
  planner: 'default' | 'no-seqscan',
): Promise<QueryPlan> {
  const compiled = isRawBuilder(query) ? query.compile(handle.db) : query.compile();
  if (handle.dialect === 'sqlite') {
    const { rows } = await handle.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return { text: rows.map((r) => r.detail).join('\n'), nodes: [], conds: [] };
  }
  const { rows } = await handle.db.transaction().execute(async (trx) => {
    if (planner === 'no-seqscan') await sql`set local enable_seqscan = off`.execute(trx);
    return trx.executeQuery<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
      CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
    );
  });
  const nodes: PlanNode[] = [];
  const walk = (p: Record<string, unknown>) => {
    nodes.push({
      type: p['Node Type'] as string,
      relation: p['Relation Name'] as string | undefined,
      index: p['Index Name'] as string | undefined,
      cond: p['Index Cond'] as string | undefined,
    });
    for (const child of (p.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0].Plan);
  if (process.env.QC_DEBUG_PLANS) console.log(compiled.sql, JSON.stringify(nodes));
  return { text: JSON.stringify(nodes), nodes, conds: nodes.flatMap((n) => (n.cond ? [n.cond] : [])) };
}
