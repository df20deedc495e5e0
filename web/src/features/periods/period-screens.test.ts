import { describe, expect, it } from 'vitest';
import { periodActions } from './period-screens.tsx';

describe('the period actions', () => {
  it('when a period is in a state, then only the changes the server accepts are offered', () => {
    const publication = { number: 1, published_at: '2026-11-02T06:00:00.000Z', primary_cells: 2, hidden_cells: 3, unprotectable: 0, changed: false };
    expect(periodActions({ status: 'draft', published: false, publication: null })).toEqual(['open']);
    expect(periodActions({ status: 'open', published: false, publication: null })).toEqual(['close', 'publish']);
    expect(periodActions({ status: 'closed', published: true, publication })).toEqual(['open', 'unpublish']);
  });

  it('when the figures of a published period changed since its publication, then publishing it again is offered', () => {
    const publication = { number: 1, published_at: '2026-11-02T06:00:00.000Z', primary_cells: 2, hidden_cells: 3, unprotectable: 0, changed: true };
    expect(periodActions({ status: 'closed', published: true, publication })).toEqual(['open', 'republish', 'unpublish']);
  });
});
