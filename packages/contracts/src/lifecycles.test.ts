import { describe, expect, it } from 'vitest';
import { CommunicationStatus } from './enums.ts';
import { IMPORT_STATUSES } from './imports.ts';
import {
  allows,
  COMMUNICATION_LIFECYCLE,
  DELIVERY_LIFECYCLE,
  DELIVERY_STATUSES,
  IMPORT_FINAL_STATUSES,
  IMPORT_LIFECYCLE,
  periodActionsOffered,
  periodAllows,
} from './lifecycles.ts';
import { PERIOD_STATUSES } from './periods.ts';

describe('the lifecycles', () => {
  it('lets a period open unless open, close only when open, publish once it is not a draft, publish again only a published one', () => {
    const rows = PERIOD_STATUSES.flatMap((status) =>
      [false, true].map(
        (published) =>
          `${status}${published ? ' published' : ''}: ${(['open', 'close', 'publish', 'republish', 'unpublish'] as const).filter((a) => periodAllows({ status, published }, a)).join(' ')}`,
      ),
    );
    expect(rows).toEqual([
      'draft: open unpublish',
      'draft published: open unpublish',
      'open: close publish unpublish',
      'open published: close publish republish unpublish',
      'closed: open publish unpublish',
      'closed published: open publish republish unpublish',
    ]);
  });

  it('offers of the publishing actions only what changes something', () => {
    expect(periodActionsOffered({ status: 'draft', published: false })).toEqual(['open']);
    expect(periodActionsOffered({ status: 'open', published: false })).toEqual(['close', 'publish']);
    expect(periodActionsOffered({ status: 'closed', published: true, changed: false })).toEqual(['open', 'unpublish']);
    expect(periodActionsOffered({ status: 'closed', published: true, changed: true })).toEqual(['open', 'republish', 'unpublish']);
  });

  it('reaches every communication status from its creation, and edits only drafts', () => {
    const reached = new Set<number | null>([null]);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of Object.values(COMMUNICATION_LIFECYCLE))
        if (t.from.some((s) => reached.has(s)) && !reached.has(t.to)) {
          reached.add(t.to);
          grew = true;
        }
    }
    expect([...reached].filter((s) => s !== null).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Object.values(CommunicationStatus));
    const editable = Object.values(CommunicationStatus).filter((s) => allows(COMMUNICATION_LIFECYCLE, s, 'edit'));
    expect(editable).toEqual([CommunicationStatus.Draft]);
    expect(allows(COMMUNICATION_LIFECYCLE, CommunicationStatus.Draft, 'send')).toBe(false);
  });

  it('ends a delivery only as sent or failed, and an import as invalid, done or failed', () => {
    const left = new Set(Object.values(DELIVERY_LIFECYCLE).flatMap((t) => t.from));
    expect(DELIVERY_STATUSES.filter((s) => !left.has(s))).toEqual(['sent']);
    expect(allows(DELIVERY_LIFECYCLE, 'failed', 'retry')).toBe(true);
    expect(IMPORT_FINAL_STATUSES).toEqual(['invalid', 'done', 'failed']);
    expect(IMPORT_STATUSES.filter((s) => allows(IMPORT_LIFECYCLE, s, 'claim'))).toEqual(['queued', 'processing']);
  });
});
