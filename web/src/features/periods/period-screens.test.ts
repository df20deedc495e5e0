import { describe, expect, it } from 'vitest';
import { periodActions } from './period-screens.tsx';

describe('the period actions', () => {
  it('when a period is in a state, then only the changes the server accepts are offered', () => {
    expect(periodActions({ status: 'draft', published: false })).toEqual(['open']);
    expect(periodActions({ status: 'open', published: false })).toEqual(['close', 'publish']);
    expect(periodActions({ status: 'closed', published: true })).toEqual(['open', 'unpublish']);
  });
});
