import type { Caller } from '../deps.js';
import { domainError } from '../errors.js';
import type { BulkItem } from '../links/bulk.js';
import { bulkLimit, bulkUrls, createLinks } from '../links/bulk.js';
import type { CreatedLink } from '../links/create-link.js';
import { createLink } from '../links/create-link.js';
import { createIdempotently } from '../links/idempotency.js';
import type { IdempotencyDeps, IdempotentRun } from '../links/idempotency.js';
import type { RateDecision, RateLimiter } from '../ports.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import type { BulkInput, CreateLinkInput } from '../schemas.js';
import { spendCreations } from './budgets.js';

/** What the budgeted use cases run on: core's ports, the limiter, and who to tell of a refusal. */
export interface BudgetedDeps extends IdempotencyDeps {
  readonly rateLimiter: RateLimiter;
  /** Told of each refusal (the `/metrics` counter); never of the address. */
  readonly onLimited?: (limit: 'creation') => void;
}

/** A use case's result, and the budget decision it made (for `RateLimit-*` headers), if it spent. */
export interface Budgeted<T> {
  readonly decision: RateDecision | null;
  readonly result: Result<T>;
}

async function spend(deps: BudgetedDeps, caller: Caller, ip: string, cost: number): Promise<RateDecision> {
  const decision = await spendCreations(deps, caller, ip, cost);
  if (!decision.allowed) deps.onLimited?.('creation');
  return decision;
}

/**
 * Runs `create` once its units are spent, at most once per `Idempotency-Key` (see
 * {@link createIdempotently}): a retry answered from its key spends nothing (decisions §25).
 */
async function spendThenCreate<T>(
  deps: BudgetedDeps,
  caller: Caller,
  budget: { readonly ip: string; readonly cost: number },
  idempotent: { readonly key: string | undefined; readonly request: string },
  create: IdempotentRun<T>,
): Promise<Budgeted<T>> {
  const spent: { decision: RateDecision | null } = { decision: null };
  const result = await createIdempotently(deps, caller, idempotent, async (d, retry) => {
    if (retry) return create(d, retry);
    const decision = (spent.decision = await spend(deps, caller, budget.ip, budget.cost));
    return decision.allowed ? create(d, retry) : err(domainError('rate_limited'));
  });
  return { decision: spent.decision, result };
}

/**
 * Creates a link for a client on the open internet (the JSON API, the pages, MCP): one unit of the
 * caller's creation budget is spent first (decisions §14), so no entry point can create without it.
 * The address is only a key of the limiter, never written. With an `Idempotency-Key`, at most once per
 * key (see {@link createIdempotently}).
 */
export async function createLinkWithinBudget(
  deps: BudgetedDeps,
  input: CreateLinkInput,
  caller: Caller,
  ip: string,
  idempotencyKey?: string,
): Promise<Budgeted<CreatedLink>> {
  const idempotent = { key: idempotencyKey, request: `link\n${JSON.stringify(input)}` };
  return spendThenCreate(deps, caller, { ip, cost: 1 }, idempotent, (d) => createLink(d, input, caller));
}

/**
 * Bulk creation for a client on the open internet: too many URLs are refused before anything is spent,
 * then one unit per URL, refused whole when it does not fit (decisions §14).
 */
export async function createLinksWithinBudget(
  deps: BudgetedDeps,
  input: BulkInput,
  caller: Caller,
  ip: string,
  idempotencyKey?: string,
): Promise<Budgeted<BulkItem[]>> {
  const count = bulkUrls(input.urls).length;
  const max = bulkLimit(deps, caller);
  if (count === 0 || count > max) return { decision: null, result: await createLinks(deps, input, caller) };
  const idempotent = { key: idempotencyKey, request: `bulk\n${JSON.stringify(input)}` };
  return spendThenCreate(deps, caller, { ip, cost: count }, idempotent, (d) => createLinks(d, input, caller));
}
