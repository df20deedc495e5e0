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
