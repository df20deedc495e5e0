import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { CurrencyAddScreen, CurrencyListScreen } from './currency-screens.tsx';

function renderAdd() {
  const router = createMemoryRouter(
    [
      { path: '/currencies/add', element: <CurrencyAddScreen params={{}} title="Add currency" /> },
      { path: '/currencies', element: <CurrencyListScreen params={{}} title="Currencies" /> },
    ],
    { initialEntries: ['/currencies/add'] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

function fillAndSave(isoCode: string, name: string) {
  fireEvent.change(screen.getByRole('textbox', { name: /ISO code/ }), { target: { value: isoCode } });
  fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

describe('the currency form', () => {
  it('when the server answers 422, then each field error is shown on its input and nothing else opens', async () => {
    const api = fakeApi().on('POST', 'admin/currencies', {
      status: 422,
      body: {
        message: 'The ISO code has already been taken.',
        errors: { iso_code: ['The ISO code has already been taken.'], name: ['The name field is required.'] },
      },
    });
    const router = renderAdd();

    fillAndSave('eur', ' ');

    const isoInput = screen.getByRole('textbox', { name: /ISO code/ });
    await waitFor(() => expect(isoInput.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('The ISO code has already been taken.')).toBeTruthy();
    expect(screen.getByText('The name field is required.')).toBeTruthy();
    expect(screen.queryByText('Currency not saved.')).toBeNull();
    expect(api.callsTo('POST', 'admin/currencies')[0]!.body).toEqual({ iso_code: 'EUR', name: '' });
    expect(router.state.location.pathname).toBe('/currencies/add');
  });

  it('when the name is left empty, then the form says the standard name is used, sends it empty and shows what the server filled in', async () => {
    const api = fakeApi()
      .on('POST', 'admin/currencies', { status: 201, body: { data: { id: 7, iso_code: 'CHF', name: 'Swiss Franc' } } })
      .on('GET', 'admin/currencies', { body: { data: [{ id: 7, iso_code: 'CHF', name: 'Swiss Franc' }], meta: { page: 1, per_page: 25, total: 1 } } });
    const router = renderAdd();

    const nameInput = screen.getByRole('textbox', { name: /Name/ });
    expect(nameInput.hasAttribute('required')).toBe(false);
    expect(screen.getByText(/Leave it empty to use the standard name of the ISO code/)).toBeTruthy();
    fillAndSave('chf', '');

    await waitFor(() => expect(router.state.location.pathname).toBe('/currencies'));
    expect(api.callsTo('POST', 'admin/currencies')[0]!.body).toEqual({ iso_code: 'CHF', name: '' });
    expect(await screen.findByRole('cell', { name: 'Swiss Franc' })).toBeTruthy();
  });

  it('when saving fails otherwise, then the error modal says the model was not saved', async () => {
    fakeApi().on('POST', 'admin/currencies', { status: 500, body: { message: 'Something went wrong, try again or contact support.' } });
    renderAdd();

    fillAndSave('EUR', 'Euro');

    expect(await screen.findByText('Currency not saved.')).toBeTruthy();
    expect(screen.getByText('Could not save.')).toBeTruthy();
  });

  it('when the save succeeds, then the list opens', async () => {
    fakeApi()
      .on('POST', 'admin/currencies', { status: 201, body: { data: { id: 9, iso_code: 'EUR', name: 'Euro' } } })
      .on('GET', 'admin/currencies', { body: { data: [{ id: 9, iso_code: 'EUR', name: 'Euro' }], meta: { page: 1, per_page: 25, total: 1 } } });
    const router = renderAdd();

    fillAndSave('EUR', 'Euro');

    await waitFor(() => expect(router.state.location.pathname).toBe('/currencies'));
    expect(await screen.findByRole('cell', { name: 'Euro' })).toBeTruthy();
  });
});
