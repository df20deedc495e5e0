import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { CurrencyConversionAddScreen } from './currency-conversion-screens.tsx';

describe('the currency conversion form', () => {
  it('when no currency is chosen, then each says it is required, by its label, and nothing is sent (no currency id 0)', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', { body: { data: [], meta: { page: 1, per_page: 2000, total: 0 } } });
    const router = createMemoryRouter(
      [{ path: '/currency-conversions/add', element: <CurrencyConversionAddScreen params={{}} title="Add currency conversion" /> }],
      { initialEntries: ['/currency-conversions/add'] },
    );
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );

    fireEvent.change(screen.getByRole('textbox', { name: /Rate/ }), { target: { value: '0,5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByText('The from currency field is required.')).toBeTruthy());
    expect(screen.getByText('The to currency field is required.')).toBeTruthy();
    expect(api.callsTo('POST', 'currency_conversions')).toHaveLength(0);
  });
});
