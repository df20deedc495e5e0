import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AppProviders } from '../app/providers.tsx';
import { i18n } from '../i18n/index.ts';
import { FileErrors, type FileError } from './file-errors.tsx';
import { fileErrorHint } from './file-error-hint.ts';
import { invalidCodeError } from '../test/report-fixtures.ts';

const t = i18n.getFixedT('en-US');
const numberError = (cell: string, key = 'import.column_b_invalid'): FileError => ({
  row: 3,
  code: '1001',
  key,
  message: 'Column B contains invalid characters on row 3.',
  column: { letter: 'B', name: 'Volume', cell },
});

describe('what to do about an import error', () => {
  it('when a figure has a unit, then the hint gives the number alone, as typed', () => {
    expect(fileErrorHint(numberError('12,5 st'), t)).toBe('Remove the unit or text, keep only the number: 12,5');
    expect(fileErrorHint(numberError('€ 1 234', 'import.column_c_invalid'), t)).toBe('Remove the unit or text, keep only the number: 1 234');
  });

  it('when a figure is ambiguous ("1,234"), then the hint shows both readings', () => {
    expect(fileErrorHint(numberError('1,234'), t)).toBe('1,234 can be read as a thousand-something or as a decimal: write 1234 or 1,2340');
  });

  it('when a cell holds no number at all, then the hint says what a number looks like', () => {
    expect(fileErrorHint(numberError('n/a'), t)).toBe('Write a number only (such as 1234 or 12,5), or leave the cell empty.');
  });

  it('when a code is unknown, not the company’s, inactive or repeated, then the hint names the code and the way out', () => {
    expect(fileErrorHint(invalidCodeError(16, '9999'), t)).toBe('9999 is not a code: the template lists the codes you report.');
    expect(fileErrorHint({ ...invalidCodeError(16, '3001'), key: 'import.code_not_available' }, t)).toMatch(
      /^3001 is not one of your codes in this market: see the template/,
    );
    expect(fileErrorHint({ ...invalidCodeError(16, '1001'), key: 'import.duplicate_code' }, t)).toBe(
      'Keep one row for code 1001: add the figures of its rows together.',
    );
  });

  it('when the message says what to do already, then there is no hint', () => {
    expect(fileErrorHint({ row: 4, code: '1008', key: 'import.value_must_be_empty', message: 'Column C must be empty…', column: null }, t)).toBeNull();
    expect(fileErrorHint({ row: null, key: null, message: 'Stored before keys were.', column: null }, t)).toBeNull();
  });
});

describe('a file’s errors', () => {
  it('when the error is the whole file’s, then it reads as a sentence, not as an empty table', () => {
    render(
      <AppProviders>
        <FileErrors
          errors={[
            {
              row: null,
              code: null,
              key: 'import.not_xlsx',
              message: 'Invalid file. Please make sure the file you’re trying to import is an xlsx-file.',
              column: null,
            },
          ]}
          withCode
          testId="errors"
        />
      </AppProviders>,
    );
    const errors = screen.getByTestId('errors');
    expect(errors.textContent).toContain('Invalid file.');
    expect(within(errors).queryByRole('table')).toBeNull();
  });

  it('when a row has an error, then the table shows it with what to do beside the message', () => {
    render(
      <AppProviders>
        <FileErrors errors={[numberError('12,5 st')]} withCode testId="errors" />
      </AppProviders>,
    );
    const table = within(screen.getByTestId('errors')).getByRole('table');
    expect(within(table).getByText('Column B contains invalid characters on row 3.')).toBeTruthy();
    expect(within(table).getByTestId('file-error-hint').textContent).toBe('What to do: Remove the unit or text, keep only the number: 12,5');
  });
});
