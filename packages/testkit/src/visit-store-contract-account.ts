import type { CounterIncrement, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { anAccount } from './fixtures.js';
import { givenLink } from './fresh-stores.js';
import { byText, counter } from './visit-store-contract-across.js';
import { compactAll } from './visit-log-helpers.js';

/** Records the counters (into the visit log), folding them when `folded`. */
async function recordCounters(stores: Stores, folded: boolean, counters: CounterIncrement[]) {
  await stores.visits.record({ clicks: [], visitors: [], counters });
  if (folded) await compactAll(stores, 1000);
}

/** Two accounts; the first with links a and b, the second with c; and an anonymous link d with an edit token. */
async function givenAccounts(stores: Stores) {
  const [mine, theirs] = [anAccount(), anAccount()];
  await stores.accounts.createAccount(mine);
  await stores.accounts.createAccount(theirs);
  const a = await givenLink(stores, { accountId: mine.id });
  const b = await givenLink(stores, { accountId: mine.id });
  const c = await givenLink(stores, { accountId: theirs.id });
  const d = await givenLink(stores, { accountId: null, editTokenHash: 'd'.repeat(64) });
  return { mine: mine.id, theirs: theirs.id, a: a.id, b: b.id, c: c.id, d: d.id };
}

/** The account reads of the store: the contract is registered for stores that keep sums per account. */
function readsOf(stores: Stores) {
  const reads = stores.visits.ofAccount;
  if (reads === undefined) expect.fail('this store keeps no sums per account');
  return reads;
}

/**
 * `VisitStore.ofAccount` (decisions §18, an account's overview): the sums of every link of an account,
 * whether folded or still in the visit log, following a link claimed into the account or deleted.
 */
export function describeAccountReads(stores: () => Stores): void {
  for (const folded of [false, true]) {
    describe(`reads of an account (${folded ? 'folded' : 'in the visit log'})`, () => {
      it("sums the account's links, and no other account's or anonymous link", async () => {
        const s = stores();
        const { mine, a, b, c, d } = await givenAccounts(s);
        await recordCounters(s, folded, [
          counter(a, '2026-01-10', 'total', '23', 2),
          counter(b, '2026-01-10', 'total', '23', 3),
          counter(b, '2026-01-11', 'total', '01', 4),
          counter(a, '2026-01-10', 'country', 'DE', 2),
          counter(b, '2026-01-11', 'country', 'DE', 3),
          counter(b, '2026-01-12', 'country', 'AT', 50),
          counter(c, '2026-01-10', 'total', '23', 100),
          counter(c, '2026-01-10', 'country', 'DE', 100),
          counter(d, '2026-01-10', 'total', '23', 1000),
        ]);
        const reads = readsOf(s);
        expect(byText(await reads.countsByDay(mine, ['total', 'bots'], '2026-01-10', '2026-01-11'))).toEqual(
          byText([
            { day: '2026-01-10', dimension: 'total', key: '23', count: 5 },
            { day: '2026-01-11', dimension: 'total', key: '01', count: 4 },
          ]),
        );
        expect(await reads.countsByKey(mine, '2026-01-10', '2026-01-11')).toEqual(
          expect.arrayContaining([{ dimension: 'country', key: 'DE', count: 5 }]),
        );
        expect((await reads.countsByKey(mine, '2026-01-10', '2026-01-11')).map((c) => c.key)).not.toContain(
          'AT',
        );
        expect(await reads.topLinks(mine, '2026-01-10', '2026-01-11', 20)).toEqual([
          { key: b, count: 7 },
          { key: a, count: 2 },
        ]);
        expect(await reads.topLinks(mine, '2026-01-10', '2026-01-11', 1)).toEqual([{ key: b, count: 7 }]);
      });

      it('sums each link over any range of days, whole weeks or not', async () => {
        const s = stores();
        const { mine, a, b } = await givenAccounts(s);
        const days = Array.from({ length: 31 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`);
        await recordCounters(
          s,
          folded,
          days.flatMap((day, i) => [
            counter(a, day, 'total', '10', i + 1),
            counter(b, day, 'total', '12', 20),
          ]),
        );
        const reads = readsOf(s);
        // 2026-01-01 is a Thursday; ranges with no, one and several whole weeks, edges on either side
        for (const [from, to] of [
          ['2026-01-01', '2026-01-31'],
          ['2026-01-05', '2026-01-11'],
          ['2026-01-04', '2026-01-12'],
          ['2026-01-06', '2026-01-10'],
          ['2026-01-03', '2026-01-25'],
          ['2026-01-12', '2026-01-12'],
        ] as const) {
          const inRange = days
            .map((day, i) => [day, i + 1] as const)
            .filter(([day]) => day >= from && day <= to);
          const sumA = inRange.reduce((sum, [, n]) => sum + n, 0);
          const sumB = inRange.length * 20;
          const expected = [
            { key: a, count: sumA },
            { key: b, count: sumB },
          ].sort((x, y) => y.count - x.count || (x.key < y.key ? -1 : 1));
          expect([from, to, await reads.topLinks(mine, from, to, 20)]).toEqual([from, to, expected]);
        }
        // pruning the days before the 15th (a Thursday) keeps the rest of that week
        await s.visits.pruneCounters('2026-01-15');
        expect(await reads.topLinks(mine, '2026-01-01', '2026-01-31', 20)).toEqual([
          { key: a, count: days.slice(14).reduce((sum, _, i) => sum + 15 + i, 0) },
          { key: b, count: 17 * 20 },
        ]);
        expect(await reads.topLinks(mine, '2026-01-12', '2026-01-18', 20)).toEqual([
          { key: b, count: 4 * 20 },
          { key: a, count: 15 + 16 + 17 + 18 },
        ]);
      });

      it('takes in the counts of a link claimed into the account and drops those of a link deleted', async () => {
        const s = stores();
        const { mine, a, d } = await givenAccounts(s);
        await recordCounters(s, folded, [
          counter(a, '2026-01-10', 'total', '10', 2),
          counter(a, '2026-01-10', 'referrer', 'a.example', 2),
          counter(d, '2026-01-10', 'total', '10', 30),
          counter(d, '2026-01-10', 'referrer', 'd.example', 30),
        ]);
        expect(await s.links.claim(['d'.repeat(64)], mine, Date.parse('2026-01-11T00:00:00Z'))).toBe(1);
        const reads = readsOf(s);
        expect(await reads.topLinks(mine, '2026-01-10', '2026-01-10', 20)).toEqual([
          { key: d, count: 30 },
          { key: a, count: 2 },
        ]);
        expect(byText(await reads.countsByKey(mine, '2026-01-10', '2026-01-10'))).toEqual(
          byText([
            { dimension: 'referrer', key: 'a.example', count: 2 },
            { dimension: 'referrer', key: 'd.example', count: 30 },
          ]),
        );
        expect(await reads.countsByDay(mine, ['total'], '2026-01-10', '2026-01-10')).toEqual([
          { day: '2026-01-10', dimension: 'total', key: '10', count: 32 },
        ]);
        // counted after the claim: the account's too
        await recordCounters(s, folded, [counter(d, '2026-01-10', 'total', '11', 3)]);
        expect(await reads.topLinks(mine, '2026-01-10', '2026-01-10', 20)).toEqual([
          { key: d, count: 33 },
          { key: a, count: 2 },
        ]);
        expect(await s.links.delete(d)).toBe(true);
        expect(await reads.topLinks(mine, '2026-01-10', '2026-01-10', 20)).toEqual([{ key: a, count: 2 }]);
        expect(await reads.countsByDay(mine, ['total'], '2026-01-10', '2026-01-10')).toEqual([
          { day: '2026-01-10', dimension: 'total', key: '10', count: 2 },
        ]);
      });
    });
  }
}
