/** The comparison fields of a report row without earlier figures (nothing to compare with). */
export const notCompared = {
  volume_previous: null,
  value_previous: null,
  volume_previous_change_pct: null,
  value_previous_change_pct: null,
  volume_last_year: null,
  value_last_year: null,
  volume_last_year_change_pct: null,
  value_last_year_change_pct: null,
  deviates: false,
  volume_deviates: false,
  value_deviates: false,
};

/** An import's row error as the API sends it: an unknown code in column A of a file headed "Code". */
export const invalidCodeError = (row: number, code: string) => ({
  row,
  code,
  key: 'import.invalid_code',
  params: { row },
  message: `Invalid code on row ${row}.`,
  column: { letter: 'A' as const, name: 'Code', cell: code },
});
