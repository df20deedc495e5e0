import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http.ts';
import { mapFieldErrors } from './form.ts';

describe('mapFieldErrors', () => {
  it('when a 422 names fields or parts of them, then each form field gets its first message and the rest is left over', () => {
    const error = new ApiError(422, 'The given data was invalid.', {
      name: ['The name field is required.', 'second'],
      'market_ids.2': ['The market id does not belong to the organization.'],
      markets: ['Role admin is not allowed.'],
      unknown_field: ['Something else.'],
    });

    expect(mapFieldErrors(error, ['name', 'market_ids'], { markets: 'market_ids' })).toEqual({
      mapped: { name: 'The name field is required.', market_ids: 'The market id does not belong to the organization.' },
      unmapped: ['Something else.'],
    });
  });

  it('when the error is not a 422, then nothing is mapped', () => {
    expect(mapFieldErrors(new ApiError(409, 'The currency EUR is still in use and cannot be deleted.'), ['name'])).toEqual({ mapped: {}, unmapped: [] });
    expect(mapFieldErrors(new Error('boom'), ['name'])).toEqual({ mapped: {}, unmapped: [] });
  });
});
