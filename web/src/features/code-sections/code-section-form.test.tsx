import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { CodeSectionAddScreen } from './code-section-screens.tsx';

function renderAdd() {
  const router = createMemoryRouter([{ path: '/code_sections/add', element: <CodeSectionAddScreen params={{}} title="Add code section" /> }], {
    initialEntries: ['/code_sections/add'],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

const LENGTH_MESSAGE = 'The length must be at least 1.';

describe('the code section form', () => {
  it('when a negative length is typed, then it is sent as typed (not turned into 1) and the server’s sentence shows on the field', async () => {
    const api = fakeApi()
      .on('GET', 'markets', { body: { data: [], meta: { page: 1, per_page: 2000, total: 0 } } })
      .on('POST', 'admin/code_sections', { status: 422, body: { message: LENGTH_MESSAGE, errors: { length: [LENGTH_MESSAGE] } } });
    renderAdd();

    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Trucks' } });
    const start = screen.getByRole('textbox', { name: /Start/ });
    const length = screen.getByRole('textbox', { name: /Length/ });
    fireEvent.change(start, { target: { value: '100' } });
    fireEvent.change(length, { target: { value: '-5' } });
    fireEvent.blur(length);
    expect((length as HTMLInputElement).value).toBe('-5');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(LENGTH_MESSAGE)).toBeTruthy();
    expect(api.callsTo('POST', 'admin/code_sections')[0]!.body).toEqual({ name: 'Trucks', start: 100, length: -5, market_ids: [] });
  });

  it('when start or length is left empty, then the form says it is required in the server’s words and sends nothing', async () => {
    const api = fakeApi().on('GET', 'markets', { body: { data: [], meta: { page: 1, per_page: 2000, total: 0 } } });
    renderAdd();

    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Trucks' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByText('The length field is required.')).toBeTruthy());
    expect(screen.getByText('The start field is required.')).toBeTruthy();
    expect(api.callsTo('POST', 'admin/code_sections')).toHaveLength(0);
  });
});
